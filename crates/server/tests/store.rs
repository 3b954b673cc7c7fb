//! The store on both back ends: rows round-trip, group commit keeps units atomic and isolated,
//! live games are found after a reopen.

#[macro_use]
mod common;

use jiang_server::store::{self, Durability, GameRow, MoveRow, Store, Write};

fn game(id: &str, status: &str) -> GameRow {
    GameRow {
        id: id.into(),
        variant: "xiangqi".into(),
        setup: "{\"initial_fen\":\"startpos\"}".into(),
        status: status.into(),
        token_first: Some("ab".repeat(32)),
        token_second: None,
        result: None,
        clock: Some("{}".into()),
        meta: "{}".into(),
        created_at: 1,
        updated_at: 2,
        opponent: None,
        deadline_at: None,
        to_move: None,
    }
}

fn mv(id: &str, ply: i64, text: &str) -> Write {
    Write::AppendMove(MoveRow {
        game_id: id.into(),
        ply,
        text: text.into(),
        clock: None,
        at_ms: ply,
    })
}

async fn exercise(url: &str) {
    let backend = store::connect(url, Durability::Full)
        .await
        .expect("connect");
    let (store, writer) = Store::new(backend.clone());
    store
        .write(vec![Write::SaveGame(game("gameAAAA01", "playing"))])
        .await
        .unwrap();
    store
        .write(vec![Write::SaveGame(game("gameBBBB02", "ended"))])
        .await
        .unwrap();
    // Many units at once: they are committed together, each acknowledged.
    let mut pending = Vec::new();
    for ply in 1..=50 {
        let store = store.clone();
        pending.push(tokio::spawn(async move {
            store.write(vec![mv("gameAAAA01", ply, "h2e2")]).await
        }));
    }
    for p in pending {
        p.await.unwrap().unwrap();
    }
    // A unit that fails (a ply already stored) is refused as a whole and spoils no other unit
    // of its batch.
    let (bad, good) = tokio::join!(
        store.write(vec![
            Write::SaveGame(GameRow {
                status: "ended".into(),
                ..game("gameAAAA01", "ended")
            }),
            mv("gameAAAA01", 3, "b2e2"),
        ]),
        store.write(vec![mv("gameAAAA01", 51, "h7e7")]),
    );
    assert!(bad.is_err());
    good.unwrap();
    let loaded = store.load("gameAAAA01").await.unwrap().unwrap();
    assert_eq!(
        loaded.row.status, "playing",
        "the failed unit changed nothing"
    );
    assert_eq!(
        loaded.row.token_first.as_deref(),
        Some("ab".repeat(32).as_str())
    );
    assert_eq!(loaded.moves.len(), 51);
    assert_eq!(loaded.moves[2].text, "h2e2");
    assert!(loaded.moves.windows(2).all(|w| w[0].ply + 1 == w[1].ply));
    assert!(store.load("gameZZZZ99").await.unwrap().is_none());
    // Updating a game that is not stored fails; updating one that is works.
    assert!(
        store
            .write(vec![Write::UpdateGame(game("gameZZZZ99", "playing"))])
            .await
            .is_err()
    );
    store
        .write(vec![Write::UpdateGame(GameRow {
            token_second: Some("cd".repeat(32)),
            ..game("gameBBBB02", "ended")
        })])
        .await
        .unwrap();
    let b = store.load("gameBBBB02").await.unwrap().unwrap();
    assert_eq!(
        b.row.token_second.as_deref(),
        Some("cd".repeat(32).as_str())
    );
    let live = store.load_live().await.unwrap();
    assert_eq!(live.len(), 1);
    assert_eq!(live[0].row.id, "gameAAAA01");
    drop(store);
    writer.await.unwrap();
    backend.close().await;
    // Reopening (migrations again) keeps everything.
    let backend = store::connect(url, Durability::Normal)
        .await
        .expect("reconnect");
    let (store, _writer) = Store::new(backend);
    assert_eq!(
        store.load("gameAAAA01").await.unwrap().unwrap().moves.len(),
        51
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_store() {
    let dir = tempfile::tempdir().unwrap();
    exercise(&format!(
        "sqlite://{}/deep/er/jiang.db",
        dir.path().display()
    ))
    .await;
}

postgres_test! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres_store() {
        let url = common::postgres_url("postgres_store").await;
        exercise(&url).await;
        common::drop_postgres(&url).await;
    }
}

#[tokio::test]
async fn bad_urls_are_refused() {
    assert!(matches!(
        store::connect("mysql://localhost/x", Durability::Full).await,
        Err(store::StoreError::BadUrl(_))
    ));
}
