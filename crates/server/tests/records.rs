//! Records as other programs read them, through the real server: PGN flavours and their
//! `Format` tag, KIF/KI2/CSA downloads with move times and time controls, and import.

mod common;

use common::TestServer;
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn xiangqi_pgn_in_every_movetext_flavour() {
    let s = TestServer::start().await;
    let clock = json!({"main": 600, "increment": 5});
    let (id, ..) = s
        .timed_game("xiangqi", clock, &["h2e2", "h9g7", "h0g2"])
        .await;
    // ICCS is the default movetext.
    let iccs = "1. h2e2 h9g7 2. h0g2";
    let flavours = [
        ("format=pgn", "ICCS", iccs),
        ("format=pgn&moves=iccs", "ICCS", iccs),
        ("format=pgn&moves=wxf", "WXF", "1. C2.5 H8+7 2. H2+3"),
        (
            "moves=chinese",
            "Chinese",
            "1. 炮二平五 马８进７ 2. 马二进三",
        ),
    ];
    for (query, tag, movetext) in flavours {
        let (status, name, pgn) = s.record(&id, query).await;
        assert_eq!(status, StatusCode::OK, "{query}: {pgn}");
        assert!(name.ends_with(".pgn\""), "{name}");
        assert!(
            pgn.contains(&format!("[Format \"{tag}\"]\n")),
            "{query}:\n{pgn}"
        );
        assert!(pgn.contains(movetext), "{query}:\n{pgn}");
        assert!(pgn.contains("[TimeControl \"600+5\"]\n"), "{query}:\n{pgn}");
        // The rules crate's reader reads every flavour back to the same moves.
        let back = jiang_rules::xiangqi::notation::Record::parse(&pgn).unwrap();
        let moves: Vec<String> = back.moves().iter().map(ToString::to_string).collect();
        assert_eq!(moves, ["h2e2", "h9g7", "h0g2"], "{query}");
    }
    let (status, _, body) = s.record(&id, "format=pgn&moves=klingon").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("bad_moves"), "{body}");
    let (status, _, body) = s.record(&id, "format=fen&moves=wxf").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("bad_moves"), "{body}");
    // Untimed: `-`.
    let (id, ..) = s.game(json!({"variant": "xiangqi"}), "red").await;
    let (_, _, pgn) = s.record(&id, "format=pgn").await;
    assert!(pgn.contains("[TimeControl \"-\"]\n"), "{pgn}");
    s.stop().await;
}

#[tokio::test]
async fn shogi_records_carry_move_times_and_the_time_control() {
    let s = TestServer::start().await;
    let clock = json!({"main": 600, "byoyomi": 30});
    let (id, sente, _) = s.timed_game("shogi", clock, &["7g7f", "3c3d"]).await;
    // A move made after at least a second and a half takes at least one whole second.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    s.play(&id, &sente, "2g2f").await;
    let (status, name, kif) = s.record(&id, "format=kif").await;
    assert_eq!(status, StatusCode::OK, "{kif}");
    assert!(name.ends_with(".kifu\""), "UTF-8 KIF is .kifu: {name}");
    assert!(kif.contains("持ち時間：10分+30秒\n"), "{kif}");
    let third = kif
        .lines()
        .find(|l| l.starts_with("   3 "))
        .unwrap_or_else(|| panic!("{kif}"));
    assert!(third.starts_with("   3 ２六歩(27)"), "{third}");
    let seconds: u32 = third
        .split('(')
        .nth(2)
        .and_then(|t| t.split('/').next())
        .and_then(|t| t.trim().split_once(':'))
        .map(|(m, s)| m.trim().parse::<u32>().unwrap() * 60 + s.parse::<u32>().unwrap())
        .unwrap_or_else(|| panic!("{third}"));
    assert!(seconds >= 1, "{third}");
    let read = jiang_rules::shogi::notation::read_kif(kif.as_bytes()).unwrap();
    assert_eq!(read.moves, ["7g7f", "3c3d", "2g2f"]);
    assert_eq!(read.move_seconds[2], seconds);
    let (_, name, csa) = s.record(&id, "format=csa").await;
    assert!(name.ends_with(".csa\""), "{name}");
    let times: Vec<&str> = csa.lines().filter(|l| l.starts_with('T')).collect();
    assert_eq!(times.len(), 3, "a T line per move:\n{csa}");
    assert_eq!(times[2], format!("T{seconds}"), "{csa}");
    let (status, name, ki2) = s.record(&id, "format=ki2").await;
    assert_eq!(status, StatusCode::OK, "{ki2}");
    assert!(name.ends_with(".ki2u\""), "{name}");
    assert!(ki2.contains("▲７六歩"), "{ki2}");
    let read = jiang_rules::shogi::notation::read_ki2(ki2.as_bytes()).unwrap();
    assert_eq!(read.moves, ["7g7f", "3c3d", "2g2f"]);
    s.stop().await;
}

#[tokio::test]
async fn import_reads_json_uploads_and_raw_bytes_in_any_encoding() {
    let s = TestServer::start().await;
    let kif = "手合割：香落ち\n下手：羽生\n上手：Bob\n手数----指手---------消費時間--\n   1 ５四歩(53)   ( 0:03/00:00:03)\n   2 ７六歩(77)   ( 0:05/00:00:05)\n   3 投了\nまで2手で下手の勝ち\n";
    let expect = |v: &serde_json::Value| {
        assert_eq!(v["format"], "kif", "{v}");
        assert_eq!(v["variant"], "shogi", "{v}");
        assert_eq!(
            v["start"],
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        assert_eq!(v["moves"], json!(["5c5d", "7g7f"]));
        assert_eq!(
            v["result"],
            json!({"winner": "sente", "reason": "resignation"})
        );
        assert_eq!(v["move_seconds"], json!([3, 5]));
        for header in [json!(["sente", "羽生"]), json!(["handicap", "lance"])] {
            assert!(v["headers"].as_array().unwrap().contains(&header), "{v}");
        }
    };
    // JSON.
    let (status, v) = s.post("/api/import", None, json!({"text": kif})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    expect(&v);
    // Raw Shift_JIS and EUC-JP bytes.
    for encoding in [encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP] {
        let (bytes, _, _) = encoding.encode(kif);
        let (status, v) = s
            .post_bytes(
                "/api/import",
                None,
                "application/octet-stream",
                bytes.into_owned(),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        expect(&v);
    }
    // A file upload (Shift_JIS .kif) with a variant part.
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(kif);
    let mut body = b"--XyZ\r\nContent-Disposition: form-data; name=\"variant\"\r\n\r\nshogi\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"game.kif\"\r\nContent-Type: application/octet-stream\r\n\r\n".to_vec();
    body.extend_from_slice(&bytes);
    body.extend_from_slice(b"\r\n--XyZ--\r\n");
    let (status, v) = s
        .post_bytes(
            "/api/import",
            None,
            "multipart/form-data; boundary=XyZ",
            body,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    expect(&v);
    // A xiangqi PGN with WXF moves.
    let pgn = "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 1-0\n";
    let (status, v) = s.post("/api/import", None, json!({"text": pgn})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!(["h2e2", "h9g7", "h0g2"]));
    assert_eq!(v["winner"], "red");
    s.stop().await;
}

#[tokio::test]
async fn import_errors_are_typed_with_the_line() {
    let s = TestServer::start().await;
    let cases = [
        (
            json!({"text": "   1 ７六歩(77)\n   2 ７五歩(76)\n   3 ２六歩(27)\n"}),
            "bad_move",
            Some(2),
        ),
        (
            json!({"text": "[Variant \"xiangqi\"]\n\n1. h2e2 h2h9 *\n"}),
            "bad_move",
            Some(3),
        ),
        (json!({"text": "hello"}), "unknown_format", Some(1)),
        (json!({"text": ""}), "empty_record", None),
        (
            json!({"text": "1. h2e2 *", "variant": "shogi"}),
            "wrong_variant",
            None,
        ),
        (
            json!({"text": "1. h2e2 *", "variant": "chess"}),
            "bad_variant",
            None,
        ),
        (json!({"record": "1. h2e2 *"}), "missing_text", None),
    ];
    for (body, code, line) in cases {
        let (status, v) = s.post("/api/import", None, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["error"]["code"], code, "{body}: {v}");
        assert!(
            v["error"]["message"].as_str().unwrap().ends_with('.'),
            "{v}"
        );
        assert_eq!(
            v["error"]["line"].as_u64(),
            line.map(|l: usize| l as u64),
            "{body}: {v}"
        );
    }
    // Bigger than 1 MiB: 413.
    let big = "a".repeat((1 << 20) + 10);
    let (status, _) = s
        .post_bytes("/api/import", None, "text/plain", big.into_bytes())
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    s.stop().await;
}
