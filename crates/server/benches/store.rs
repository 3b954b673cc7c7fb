//! Store write benchmark: moves per second durably appended to SQLite through the server's
//! group-commit store, the way game actors write (each game waits for its move to be committed
//! before sending the next one).
//!
//! `cargo bench -p jiang-server --bench store` (optional arguments: games, moves per game).

use std::sync::Arc;
use std::time::Instant;

use jiang_server::store::{self, Durability, GameRow, MoveRow, Store, Write};

fn row(id: &str) -> GameRow {
    GameRow {
        id: id.to_owned(),
        variant: "xiangqi".into(),
        setup: r#"{"initial_fen":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"}"#.into(),
        status: "playing".into(),
        token_first: Some("0".repeat(64)),
        token_second: Some("1".repeat(64)),
        result: None,
        clock: None,
        meta: "{}".into(),
        created_at: 0,
        updated_at: 0,
        opponent: None,
        deadline_at: None,
        to_move: None,
    }
}

/// One move as the actor writes it: the move row plus the updated game row, in one unit.
fn unit(id: &str, ply: i64) -> Vec<Write> {
    let clock = r#"{"sides":[{"ms":59000,"periods":0,"byoyomi":false},{"ms":60000,"periods":0,"byoyomi":false}],"running":"second","moving":"second","move_ms":0,"flagged":null}"#;
    let mut game = row(id);
    game.clock = Some(clock.into());
    game.updated_at = ply;
    vec![
        Write::AppendMove(MoveRow {
            game_id: id.to_owned(),
            ply,
            text: "h2e2".into(),
            clock: Some(clock.into()),
            at_ms: ply,
        }),
        Write::UpdateGame(game),
    ]
}

async fn run(durability: Durability, games: usize, moves: usize) -> f64 {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}/bench.db", dir.path().display());
    let backend = store::connect(&url, durability).await.expect("database");
    let (store, writer) = Store::new(backend.clone());
    let store = Arc::new(store);
    for g in 0..games {
        store
            .write(vec![Write::SaveGame(row(&format!("game{g:06}")))])
            .await
            .expect("create");
    }
    let started = Instant::now();
    let mut tasks = Vec::new();
    for g in 0..games {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("game{g:06}");
            for ply in 1..=moves as i64 {
                store.write(unit(&id, ply)).await.expect("append");
            }
        }));
    }
    for t in tasks {
        t.await.expect("task");
    }
    let elapsed = started.elapsed().as_secs_f64();
    drop(store);
    writer.await.expect("writer");
    backend.close().await;
    (games * moves) as f64 / elapsed
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(1000);
    let moves = args.get(1).copied().unwrap_or(20);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    for (name, durability) in [
        ("synchronous=FULL", Durability::Full),
        ("synchronous=NORMAL", Durability::Normal),
    ] {
        let concurrent = runtime.block_on(run(durability, games, moves));
        let sequential = runtime.block_on(run(durability, 1, 500));
        println!(
            "sqlite {name}: {concurrent:>8.0} moves/s ({games} games x {moves} moves, group commit); \
             {sequential:>6.0} moves/s for one game alone"
        );
    }
}
