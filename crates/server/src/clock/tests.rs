//! Clock tests with explicit instants: every rule of clocks-and-games.md, then property tests
//! against a tick-by-tick reference model.

use super::*;
use proptest::prelude::*;

const RED: Side = Side::RED;
const BLACK: Side = Side::BLACK;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

fn control(
    main: u64,
    increment: u64,
    byoyomi: u64,
    periods: u32,
    limit: Option<u64>,
) -> TimeControl {
    TimeControl::new(
        secs(main),
        secs(increment),
        secs(byoyomi),
        periods,
        limit.map(secs),
    )
    .expect("valid control")
}

fn shown(clock: &Clock, side: Side, now: Instant) -> (u64, u32, bool) {
    let t = *clock.snapshot(now).side(side);
    (t.ms, t.periods, t.byoyomi)
}

/// A clock whose both sides made their first moves, Red to move from `t0`.
fn started(control: TimeControl, t0: Instant) -> Clock {
    let mut clock = Clock::new(control);
    assert_eq!(clock.running(), None);
    assert_eq!(clock.flag_at(), None);
    clock.start(RED, t0);
    assert_eq!(clock.running(), Some(RED));
    clock
}

#[test]
fn berserk_halves_main_time_and_drops_increment_and_byoyomi() {
    let t0 = Instant::now();
    let mut clock = Clock::new(control(300, 5, 30, 3, None));
    clock.berserk(BLACK).expect("before any move");
    assert_eq!(clock.berserked(), [false, true]);
    assert_eq!(shown(&clock, BLACK, t0), (150_000, 0, false));
    assert_eq!(shown(&clock, RED, t0), (300_000, 3, false));
    assert_eq!(clock.berserk(BLACK), Err(BerserkRefused::Already));
    // Red moves in 10 s and earns the increment; Black gets none.
    clock.start(RED, t0);
    clock.press(t0 + secs(10)).expect("in time");
    assert_eq!(shown(&clock, RED, t0 + secs(10)), (295_000, 3, false));
    clock.press(t0 + secs(20)).expect("in time");
    assert_eq!(shown(&clock, BLACK, t0 + secs(20)), (140_000, 0, false));
    // No byo-yomi to fall back on: the berserked side flags when its main time is gone.
    assert_eq!(clock.berserk(RED), Err(BerserkRefused::Started));
    clock.press(t0 + secs(21)).expect("in time");
    assert_eq!(clock.flag_at(), Some(t0 + secs(161)));
    assert_eq!(clock.flagged(t0 + secs(161)), Some(BLACK));
}

#[test]
fn berserk_needs_main_time_and_survives_a_restore() {
    let t0 = Instant::now();
    let mut byoyomi_only = Clock::new(control(0, 0, 30, 1, None));
    assert_eq!(byoyomi_only.berserk(RED), Err(BerserkRefused::NoMainTime));
    let mut clock = Clock::new(control(60, 2, 0, 0, None));
    clock.berserk(RED).expect("fresh");
    clock.start(RED, t0);
    let snapshot = clock.snapshot(t0 + secs(5));
    let json = serde_json::to_string(&snapshot).expect("serialises");
    let back: ClockSnapshot = serde_json::from_str(&json).expect("parses");
    let mut restored = Clock::restore(*clock.control(), &back, t0 + secs(100));
    assert_eq!(restored.berserked(), [true, false]);
    // 25 s left of the berserked 30 s; a completed move earns no increment.
    restored.press(t0 + secs(110)).expect("in time");
    assert_eq!(shown(&restored, RED, t0 + secs(110)), (15_000, 0, false));
    // A snapshot from before berserk existed reads as nobody berserked.
    let old: ClockSnapshot = serde_json::from_str(
        r#"{"sides":[{"ms":1,"periods":0,"byoyomi":false},{"ms":1,"periods":0,"byoyomi":false}],"running":null,"moving":null,"move_ms":0,"flagged":null}"#,
    )
    .expect("old snapshot parses");
    assert_eq!(old.berserk, [false, false]);
}

#[test]
fn main_time_runs_only_for_the_side_to_move() {
    let t0 = Instant::now();
    let clock = started(control(600, 0, 0, 0, None), t0);
    let t = t0 + secs(7);
    assert_eq!(shown(&clock, RED, t), (593_000, 0, false));
    assert_eq!(shown(&clock, BLACK, t), (600_000, 0, false));
    assert_eq!(clock.snapshot(t).running, Some(RED));
}

#[test]
fn increment_is_added_after_a_move_in_main_time() {
    let t0 = Instant::now();
    let mut clock = started(control(600, 5, 0, 0, None), t0);
    clock.press(t0 + secs(3)).unwrap();
    assert_eq!(clock.running(), Some(BLACK));
    let t = t0 + secs(4);
    assert_eq!(shown(&clock, RED, t), (602_000, 0, false));
    assert_eq!(shown(&clock, BLACK, t), (599_000, 0, false));
    clock.press(t0 + secs(10)).unwrap();
    assert_eq!(shown(&clock, BLACK, t0 + secs(10)), (598_000, 0, false));
    assert_eq!(clock.display_control(), "10+5");
}

#[test]
fn sudden_death_flags_when_main_time_reaches_zero() {
    let t0 = Instant::now();
    let mut clock = started(control(60, 0, 0, 0, None), t0);
    assert_eq!(clock.flag_at(), Some(t0 + secs(60)));
    assert_eq!(clock.flagged(t0 + secs(60) - ms(1)), None);
    assert_eq!(clock.flagged(t0 + secs(60)), Some(RED));
    let late = clock.clone().press(t0 + secs(60));
    assert_eq!(late, Err(Flag { side: RED }));
    clock.press(t0 + secs(60) - ms(1)).unwrap();
    assert_eq!(shown(&clock, RED, t0 + secs(60)), (1, 0, false));
}

#[test]
fn a_flag_is_final() {
    let t0 = Instant::now();
    let mut clock = started(control(60, 0, 0, 0, None), t0);
    assert_eq!(clock.press(t0 + secs(61)), Err(Flag { side: RED }));
    assert_eq!(clock.running(), None);
    assert_eq!(clock.flag_at(), None);
    assert_eq!(clock.flagged(t0), Some(RED));
    assert_eq!(clock.press(t0 + secs(62)), Err(Flag { side: RED }));
    clock.start(BLACK, t0 + secs(63));
    assert_eq!(clock.running(), None);
    let snap = clock.snapshot(t0 + secs(70));
    assert_eq!(snap.flagged, Some(RED));
    assert_eq!(snap.side(RED).ms, 0);
    assert_eq!(snap.side(BLACK).ms, 60_000);
}

#[test]
fn byoyomi_countdown_resets_after_a_move_in_time() {
    let t0 = Instant::now();
    // 10|30: Red's first move uses the 10 s of main time and 20 s of the countdown.
    let mut clock = started(control(600, 0, 30, 1, None), t0);
    let mut t = t0 + secs(600);
    clock.press(t).unwrap(); // exactly the main time: in time, now in byo-yomi
    assert_eq!(shown(&clock, RED, t), (30_000, 1, true));
    t += secs(1);
    clock.press(t).unwrap(); // Black
    t += ms(29_999);
    assert_eq!(shown(&clock, RED, t), (1, 1, true));
    clock.press(t).unwrap(); // Red, in time: the countdown resets
    assert_eq!(shown(&clock, RED, t), (30_000, 1, true));
    t += secs(1);
    clock.press(t).unwrap(); // Black
    assert_eq!(clock.flag_at(), Some(t + secs(30)));
    assert_eq!(clock.press(t + secs(30)), Err(Flag { side: RED }));
}

#[test]
fn each_countdown_that_runs_out_uses_a_period_and_the_last_one_flags() {
    let t0 = Instant::now();
    let mut clock = started(control(10, 0, 30, 3, None), t0);
    assert_eq!(clock.display_control(), "10s|30(3x)");
    // 10 s main + one full countdown + 5 s: one period used, in time.
    let mut t = t0 + secs(45);
    assert_eq!(shown(&clock, RED, t), (25_000, 2, true));
    clock.press(t).unwrap();
    assert_eq!(shown(&clock, RED, t), (30_000, 2, true));
    t += secs(1);
    clock.press(t).unwrap(); // Black
    // Two periods left: the flag falls after two full countdowns.
    assert_eq!(clock.flag_at(), Some(t + secs(60)));
    assert_eq!(shown(&clock, RED, t + secs(30)), (30_000, 1, true));
    clock.press(t + ms(59_999)).unwrap();
    t += ms(59_999);
    assert_eq!(shown(&clock, RED, t), (30_000, 1, true));
    t += secs(1);
    clock.press(t).unwrap(); // Black
    assert_eq!(clock.flagged(t + ms(29_999)), None);
    assert_eq!(clock.flagged(t + secs(30)), Some(RED));
    assert_eq!(clock.press(t + secs(31)), Err(Flag { side: RED }));
    let snap = clock.snapshot(t + secs(31));
    assert_eq!((snap.side(RED).ms, snap.side(RED).periods), (0, 0));
}

#[test]
fn move_limit_exceeded_in_main_time_is_a_forfeit() {
    let t0 = Instant::now();
    let mut clock = started(control(600, 0, 0, 0, Some(60)), t0);
    assert_eq!(clock.flag_at(), Some(t0 + secs(60)));
    clock.press(t0 + ms(59_999)).unwrap();
    let t = t0 + secs(60);
    clock.press(t).unwrap(); // Black
    assert_eq!(clock.flagged(t + ms(59_999)), None);
    assert_eq!(clock.flagged(t + secs(60)), Some(RED));
    assert_eq!(clock.press(t + secs(60)), Err(Flag { side: RED }));
}

#[test]
fn move_limit_does_not_govern_byoyomi() {
    let t0 = Instant::now();
    // 100 s of main time, 60 s per move, then 30 s byo-yomi.
    let mut clock = started(control(100, 0, 30, 1, Some(60)), t0);
    clock.press(t0 + secs(50)).unwrap(); // Red: 50 s left, less than the limit
    let t = t0 + secs(51);
    clock.press(t).unwrap(); // Black
    // Main runs out before the limit: 50 s of main then the countdown.
    assert_eq!(clock.flag_at(), Some(t + secs(80)));
    clock.press(t + secs(70)).unwrap(); // 70 s > limit, but 50 main + 20 countdown: in time
    assert_eq!(shown(&clock, RED, t + secs(70)), (30_000, 1, true));
}

#[test]
fn mate_inside_the_countdown_after_main_time_ran_out_is_in_time() {
    // Regression: a mating move made after the main time ran out but inside the countdown
    // wins; it is never scored as a loss on time.
    let t0 = Instant::now();
    let mut clock = started(control(10, 0, 30, 1, None), t0);
    let mate = t0 + secs(25); // 10 s of main time + 15 s of the countdown
    assert_eq!(clock.flagged(mate), None);
    assert_eq!(shown(&clock, RED, mate), (15_000, 1, true));
    assert_eq!(clock.press(mate), Ok(()));
    clock.stop(mate);
    assert_eq!(clock.flagged(mate + secs(3600)), None);
    assert_eq!(clock.running(), None);
    // Same with stop alone (the game ends at the mating move).
    let mut clock = started(control(10, 0, 30, 1, None), t0);
    clock.stop(mate);
    assert_eq!(clock.flagged(mate + secs(3600)), None);
}

#[test]
fn crossing_into_byoyomi_takes_main_time_first() {
    let t0 = Instant::now();
    let mut clock = started(control(60, 5, 20, 2, None), t0);
    assert_eq!(clock.display_control(), "1+5|20(2x)");
    assert_eq!(clock.flag_at(), Some(t0 + secs(100)));
    // 60 s main + 10 s of the first countdown.
    clock.press(t0 + secs(70)).unwrap();
    // No increment: the move ended in byo-yomi. Both periods are left.
    assert_eq!(shown(&clock, RED, t0 + secs(70)), (20_000, 2, true));
}

#[test]
fn no_increment_while_in_byoyomi() {
    let t0 = Instant::now();
    let mut clock = started(control(60, 5, 20, 1, None), t0);
    let mut t = t0 + secs(65);
    clock.press(t).unwrap(); // into byo-yomi
    t += secs(1);
    clock.press(t).unwrap(); // Black
    t += secs(3);
    clock.press(t).unwrap(); // Red, 3 s into the countdown
    assert_eq!(shown(&clock, RED, t), (20_000, 1, true));
    assert_eq!(shown(&clock, BLACK, t), (64_000, 1, false));
}

#[test]
fn pure_byoyomi_starts_in_the_countdown() {
    let t0 = Instant::now();
    let mut clock = started(control(0, 0, 10, 1, None), t0);
    assert_eq!(shown(&clock, RED, t0), (10_000, 1, true));
    assert_eq!(shown(&clock, BLACK, t0), (10_000, 1, true));
    assert_eq!(clock.flag_at(), Some(t0 + secs(10)));
    clock.press(t0 + secs(9)).unwrap();
    assert_eq!(clock.display_control(), "0|10");
}

#[test]
fn press_before_start_does_nothing() {
    let t0 = Instant::now();
    let mut clock = Clock::new(control(60, 0, 0, 0, None));
    assert_eq!(clock.press(t0 + secs(3600)), Ok(()));
    assert_eq!(clock.running(), None);
    assert_eq!(clock.flagged(t0 + secs(3600)), None);
    assert_eq!(shown(&clock, RED, t0), (60_000, 0, false));
}

#[test]
fn stop_charges_and_pauses_and_start_resumes() {
    let t0 = Instant::now();
    let mut clock = started(control(60, 5, 0, 0, None), t0);
    clock.stop(t0 + secs(10));
    assert_eq!(clock.running(), None);
    assert_eq!(clock.flag_at(), None);
    // Time does not run while stopped.
    assert_eq!(shown(&clock, RED, t0 + secs(1000)), (50_000, 0, false));
    assert_eq!(clock.flagged(t0 + secs(1000)), None);
    clock.start(RED, t0 + secs(1000));
    assert_eq!(clock.flag_at(), Some(t0 + secs(1050)));
    clock.press(t0 + secs(1010)).unwrap();
    assert_eq!(shown(&clock, RED, t0 + secs(1010)), (45_000, 0, false));
}

#[test]
fn stop_after_the_flag_records_it() {
    let t0 = Instant::now();
    let mut clock = started(control(60, 0, 0, 0, None), t0);
    clock.stop(t0 + secs(61));
    assert_eq!(clock.flagged(t0), Some(RED));
    assert_eq!(clock.snapshot(t0).flagged, Some(RED));
}

#[test]
fn snapshot_restore_does_not_charge_downtime() {
    let t0 = Instant::now();
    let mut clock = started(control(60, 2, 10, 2, Some(40)), t0);
    clock.press(t0 + secs(5)).unwrap(); // Red: 57 s
    // Black is 7 s into its move when the server goes down.
    let down = t0 + secs(12);
    let snap = clock.snapshot(down);
    assert_eq!(snap.running, Some(BLACK));
    assert_eq!(snap.move_ms, 7_000);
    let json = serde_json::to_string(&snap).unwrap();
    let back: ClockSnapshot = serde_json::from_str(&json).unwrap();
    assert_eq!(back, snap);
    // Back up an hour later.
    let up = down + secs(3600);
    let restored = Clock::restore(*clock.control(), &back, up);
    assert_eq!(restored.running(), Some(BLACK));
    assert_eq!(restored.snapshot(up), snap);
    // The move limit still counts the 7 s spent before the restart: 33 s left.
    assert_eq!(restored.flag_at(), Some(up + secs(33)));
    assert_eq!(
        clock.flag_at().unwrap() + secs(3600),
        restored.flag_at().unwrap()
    );
    let mut a = clock.clone();
    let mut b = restored;
    a.press(down + secs(3)).unwrap();
    b.press(up + secs(3)).unwrap();
    assert_eq!(a.snapshot(down + secs(4)), b.snapshot(up + secs(4)));
}

#[test]
fn restore_in_byoyomi_keeps_the_countdown_and_periods() {
    let t0 = Instant::now();
    let clock = started(control(10, 0, 30, 3, None), t0);
    let down = t0 + secs(50); // main gone, one countdown used, 10 s into the second
    let snap = clock.snapshot(down);
    assert_eq!(
        *snap.side(RED),
        SideTime {
            ms: 20_000,
            periods: 2,
            byoyomi: true
        }
    );
    let up = down + secs(600);
    let restored = Clock::restore(*clock.control(), &snap, up);
    assert_eq!(restored.flag_at(), Some(up + secs(50)));
    assert_eq!(restored.snapshot(up), snap);
    let mut b = restored.clone();
    b.press(up + secs(25)).unwrap(); // into the third countdown
    assert_eq!(shown(&b, RED, up + secs(25)), (30_000, 1, true));
}

#[test]
fn restore_of_a_flagged_or_stopped_clock() {
    let t0 = Instant::now();
    let mut clock = started(control(60, 0, 0, 0, None), t0);
    clock.press(t0 + secs(10)).unwrap();
    clock.stop(t0 + secs(20));
    let snap = clock.snapshot(t0 + secs(20));
    assert_eq!((snap.running, snap.moving), (None, Some(BLACK)));
    let restored = Clock::restore(*clock.control(), &snap, t0 + secs(500));
    assert_eq!(restored.running(), None);
    assert_eq!(restored.snapshot(t0 + secs(900)), snap);

    let mut flagged = started(control(60, 0, 0, 0, None), t0);
    let _ = flagged.press(t0 + secs(70));
    let snap = flagged.snapshot(t0 + secs(70));
    let restored = Clock::restore(*flagged.control(), &snap, t0 + secs(500));
    assert_eq!(restored.flagged(t0), Some(RED));
}

/// A clock snapshotted at `snap_at`, the server running on for `ran` before it stops, and back
/// at `up`: the resumed clock at `up + d` must equal the uninterrupted one at `snap_at + ran + d`.
fn assert_resume_equals_uninterrupted(clock: &Clock, snap_at: Instant, ran: Duration) {
    let up = snap_at + ran + secs(3600);
    let snap = clock.snapshot(snap_at);
    let resumed = Clock::resume(*clock.control(), &snap, ran, up);
    for d in [0, 1, 7, 29, 61] {
        assert_eq!(
            resumed.snapshot(up + secs(d)),
            clock.snapshot(snap_at + ran + secs(d)),
            "{d} s after the restart"
        );
    }
    assert_eq!(
        resumed.flag_at().map(|at| at - up),
        clock.flag_at().map(|at| at - (snap_at + ran))
    );
}

#[test]
fn resume_charges_the_think_time_before_the_stop_not_the_downtime() {
    let t0 = Instant::now();
    let clock = started(control(60, 0, 0, 0, None), t0);
    // Red thinks 5 s, the snapshot is stored; the server runs 3 s more, stops, and is back
    // after an hour: Red has 52 s, not 55 s (the old refund) and not 0 (the downtime).
    let snap = clock.snapshot(t0 + secs(5));
    let up = t0 + secs(3608);
    let resumed = Clock::resume(*clock.control(), &snap, secs(3), up);
    assert_eq!(shown(&resumed, RED, up), (52_000, 0, false));
    assert_eq!(shown(&resumed, BLACK, up), (60_000, 0, false));
    assert_eq!(resumed.running(), Some(RED));
    assert_eq!(resumed.flag_at(), Some(up + secs(52)));
    assert_eq!(resumed.snapshot(up).move_ms, 8_000);
    assert_resume_equals_uninterrupted(&clock, t0 + secs(5), secs(3));
    // Nothing ran after the snapshot: exactly the old restore.
    assert_eq!(
        Clock::resume(*clock.control(), &snap, Duration::ZERO, up),
        Clock::restore(*clock.control(), &snap, up)
    );
}

#[test]
fn resume_keeps_the_increment_for_the_move_in_progress() {
    let t0 = Instant::now();
    let mut clock = started(control(60, 5, 0, 0, None), t0);
    clock.press(t0 + secs(4)).unwrap(); // Red: 61 s
    let snap = clock.snapshot(t0 + secs(6)); // Black 2 s into its move
    let up = t0 + secs(900);
    let mut resumed = Clock::resume(*clock.control(), &snap, secs(3), up);
    resumed.press(up + secs(1)).unwrap(); // Black spent 2 + 3 + 1 = 6 s, earns 5 s
    assert_eq!(shown(&resumed, BLACK, up + secs(1)), (59_000, 0, false));
    assert_eq!(shown(&resumed, RED, up + secs(1)), (61_000, 0, false));
    assert_resume_equals_uninterrupted(&clock, t0 + secs(6), secs(3));
}

#[test]
fn resume_uses_up_byoyomi_periods_that_ran_out_before_the_stop() {
    let t0 = Instant::now();
    let clock = started(control(10, 0, 30, 3, None), t0);
    // Snapshot with 5 s of main time left; the server runs 40 s more before it stops: the main
    // time (5 s) and the first countdown (30 s) are gone, 5 s into the second.
    let snap = clock.snapshot(t0 + secs(5));
    assert_eq!(
        *snap.side(RED),
        SideTime {
            ms: 5_000,
            periods: 3,
            byoyomi: false
        }
    );
    let up = t0 + secs(5000);
    let resumed = Clock::resume(*clock.control(), &snap, secs(40), up);
    assert_eq!(shown(&resumed, RED, up), (25_000, 2, true));
    assert_eq!(resumed.flag_at(), Some(up + secs(55)));
    // The resumed clock's own snapshot (stored at the restart) restores to the same state.
    let again = Clock::restore(*clock.control(), &resumed.snapshot(up), up);
    assert_eq!(
        again.snapshot(up + secs(20)),
        resumed.snapshot(up + secs(20))
    );
    assert_resume_equals_uninterrupted(&clock, t0 + secs(5), secs(40));
    // Already in byo-yomi at the snapshot: a countdown that ran out across the stop is used.
    let in_byoyomi = clock.snapshot(t0 + secs(20)); // main time gone, 10 s into the first countdown
    let resumed = Clock::resume(*clock.control(), &in_byoyomi, secs(25), up);
    assert_eq!(shown(&resumed, RED, up), (25_000, 2, true));
    assert_resume_equals_uninterrupted(&clock, t0 + secs(20), secs(25));
}

#[test]
fn resume_enforces_the_move_limit_across_the_stop() {
    let t0 = Instant::now();
    let clock = started(control(600, 0, 0, 0, Some(40)), t0);
    let snap = clock.snapshot(t0 + secs(10));
    let up = t0 + secs(7200);
    let resumed = Clock::resume(*clock.control(), &snap, secs(20), up);
    assert_eq!(resumed.flag_at(), Some(up + secs(10)));
    assert_eq!(resumed.flagged(up + secs(9)), None);
    assert_eq!(resumed.flagged(up + secs(10)), Some(RED));
    assert_resume_equals_uninterrupted(&clock, t0 + secs(10), secs(20));
    // The limit ran out before the stop: flagged as soon as it is back.
    let late = Clock::resume(*clock.control(), &snap, secs(35), up);
    assert_eq!(late.flagged(up), Some(RED));
    assert_eq!(late.snapshot(up).flagged, Some(RED));
    let mut late = late;
    assert_eq!(late.press(up), Err(Flag { side: RED }));
}

#[test]
fn resume_does_not_charge_a_paused_or_unstarted_clock() {
    let t0 = Instant::now();
    let fresh = Clock::new(control(60, 0, 0, 0, None));
    let snap = fresh.snapshot(t0);
    let resumed = Clock::resume(*fresh.control(), &snap, secs(20), t0 + secs(100));
    assert_eq!(resumed, fresh);
    let mut paused = started(control(60, 0, 0, 0, None), t0);
    paused.stop(t0 + secs(10));
    let snap = paused.snapshot(t0 + secs(10));
    let resumed = Clock::resume(*paused.control(), &snap, secs(20), t0 + secs(100));
    assert_eq!(resumed.snapshot(t0 + secs(200)), snap);
}

#[test]
fn think_time_before_the_stop_comes_from_the_recorded_runs() {
    let run = |started_at, alive_at| Run {
        started_at,
        alive_at,
    };
    // Snapshot at 1 000 in a run that stopped at 3 500: 2.5 s charged.
    assert_eq!(ran_since(1_000, &[run(0, 3_500)]), ms(2_500));
    // Unknown runs (an old database), or a snapshot after the last heartbeat: nothing.
    assert_eq!(ran_since(1_000, &[]), Duration::ZERO);
    assert_eq!(ran_since(3_000, &[run(0, 1_000)]), Duration::ZERO);
    assert_eq!(ran_since(3_000, &[run(0, 3_000)]), Duration::ZERO);
    // Not written for two restarts: the rest of the first run and all of the second are
    // charged, the downtimes (3 500..10 000 and 12 000..) are not.
    let runs = [run(0, 3_500), run(10_000, 12_000)];
    assert_eq!(ran_since(1_000, &runs), ms(4_500));
    // Written in the second run: only what followed in it.
    assert_eq!(ran_since(11_000, &runs), ms(1_000));
    // Runs before the snapshot contribute nothing.
    assert_eq!(ran_since(20_000, &runs), Duration::ZERO);
}

#[test]
fn first_move_countdown_survives_a_restart() {
    let up = Instant::now();
    // 10 s of the 30 s were left at the snapshot, 4 s more passed before the stop: 6 s.
    assert_eq!(resume_countdown(secs(10), secs(4), up), up + secs(6));
    assert_eq!(
        resume_countdown(secs(10), Duration::ZERO, up),
        up + secs(10)
    );
    // It ran out before the stop: due at once.
    assert_eq!(resume_countdown(secs(10), secs(12), up), up);
}

#[test]
fn display_strings() {
    let cases = [
        (control(600, 5, 0, 0, None), "10+5"),
        (control(300, 3, 0, 0, None), "5+3"),
        (control(600, 0, 0, 0, None), "10+0"),
        (control(600, 0, 30, 1, None), "10|30"),
        (control(600, 0, 30, 3, None), "10|30(3x)"),
        (control(180, 0, 10, 1, None), "3|10"),
        (control(600, 5, 30, 3, None), "10+5|30(3x)"),
        (control(0, 0, 30, 1, None), "0|30"),
        (control(30, 2, 0, 0, None), "0.5+2"),
        (control(100, 2, 0, 0, None), "100s+2"),
        (control(600, 0, 0, 0, Some(60)), "10+0 [60s/move]"),
    ];
    for (control, text) in cases {
        assert_eq!(control.display(), text);
    }
    let half = TimeControl::new(secs(60), ms(500), ms(0), 0, None).unwrap();
    assert_eq!(half.to_string(), "1+0.5");
    assert_eq!(TimeControl::display_optional(None), "∞");
    assert_eq!(TimeControl::display_optional(Some(&cases[0].0)), "10+5");
}

fn parse(json: &str) -> Result<TimeControl, String> {
    serde_json::from_str::<TimeControl>(json).map_err(|e| e.to_string())
}

#[test]
fn time_control_from_api_json() {
    assert_eq!(
        parse(r#"{"main": 600, "increment": 5}"#).unwrap(),
        control(600, 5, 0, 0, None)
    );
    assert_eq!(
        parse(r#"{"main": 600, "byoyomi": 30}"#).unwrap(),
        control(600, 0, 30, 1, None)
    );
    assert_eq!(
        parse(r#"{"main": 600, "increment": 0, "byoyomi": 30, "periods": 3, "move_limit": 60}"#)
            .unwrap(),
        control(600, 0, 30, 3, Some(60))
    );
    assert_eq!(
        parse(r#"{"main": 90.5, "move_limit": null}"#).unwrap().main,
        ms(90_500)
    );
    // Serialises back to the same seconds.
    let c = control(600, 5, 30, 3, Some(60));
    let json = serde_json::to_string(&c).unwrap();
    assert_eq!(
        json,
        r#"{"main":600,"increment":5,"byoyomi":30,"periods":3,"move_limit":60}"#
    );
    assert_eq!(parse(&json).unwrap(), c);
    let half = TimeControl::new(ms(90_500), ms(0), ms(0), 0, None).unwrap();
    assert_eq!(parse(&serde_json::to_string(&half).unwrap()).unwrap(), half);
}

#[test]
fn bad_time_controls_are_refused_with_the_reason() {
    let cases = [
        (r#"{"main": 600, "bonus": 5}"#, "unknown field `bonus`"),
        (r#"{"main": -1}"#, "clock.main must not be negative"),
        (
            r#"{"main": 60, "increment": -5}"#,
            "clock.increment must not be negative",
        ),
        (r#"{"main": 1e12}"#, "clock.main is too large"),
        (
            r#"{"main": 86401}"#,
            "clock.main is too large (at most 86400 seconds)",
        ),
        (
            r#"{"main": 60, "byoyomi": 3601}"#,
            "clock.byoyomi is too large",
        ),
        (
            r#"{"main": 60, "byoyomi": 30, "periods": 101}"#,
            "clock.periods is too large",
        ),
        (
            r#"{"main": 60, "periods": 3}"#,
            "clock.periods needs clock.byoyomi",
        ),
        (r#"{"main": 60, "byoyomi": 30, "periods": 0}"#, "at least 1"),
        (r#"{}"#, "no time at all"),
        (
            r#"{"main": 0, "increment": 0, "byoyomi": 0}"#,
            "no time at all",
        ),
        (
            r#"{"increment": 5, "byoyomi": 10}"#,
            "clock.increment applies only in main time",
        ),
        (
            r#"{"byoyomi": 30, "move_limit": 10}"#,
            "clock.move_limit applies only",
        ),
        (
            r#"{"main": 60, "move_limit": 0}"#,
            "clock.move_limit must be more than 0",
        ),
        (r#"{"main": "600"}"#, "invalid type"),
        (
            r#"{"main": 60, "periods": -1, "byoyomi": 5}"#,
            "invalid value",
        ),
    ];
    for (json, expected) in cases {
        let err = parse(json).expect_err(json);
        assert!(err.contains(expected), "{json}: {err:?} lacks {expected:?}");
    }
    assert_eq!(
        TimeControl::try_from(TimeControlSpec {
            main: f64::NAN,
            ..TimeControlSpec::default()
        }),
        Err(TimeControlError::NotFinite { field: "main" })
    );
}

impl Clock {
    fn display_control(&self) -> String {
        self.control().display()
    }
}

// ---- Property tests against a tick-by-tick reference model ----

/// One tick of the reference model.
const TICK: u64 = 100;

/// The obvious model: time passes one tick at a time.
#[derive(Clone, Debug)]
struct Model {
    main: u64,
    periods: u32,
}

impl Model {
    /// Plays a move of `d` ticks; `None` if the side flags during it (or at its last tick).
    fn play(&mut self, c: &Limits, d: u64) -> Option<()> {
        let limit_applies = self.main > 0 && c.limit.is_some_and(|l| l < self.main);
        let mut countdown = c.byoyomi;
        for k in 1..=d {
            if self.main > 0 {
                self.main -= 1;
                if limit_applies && Some(k) == c.limit {
                    return None;
                }
                if self.main == 0 && self.periods == 0 {
                    return None;
                }
            } else {
                countdown -= 1;
                if countdown == 0 {
                    self.periods -= 1;
                    if self.periods == 0 {
                        return None;
                    }
                    countdown = c.byoyomi;
                }
            }
        }
        if self.main > 0 {
            self.main += c.increment;
        }
        Some(())
    }

    /// What the display shows when the side is not moving, in ms.
    fn shown(&self, c: &Limits) -> (u64, u32, bool) {
        if self.main > 0 {
            (self.main * TICK, self.periods, false)
        } else {
            (c.byoyomi * TICK, self.periods, true)
        }
    }
}

/// A control in ticks.
#[derive(Clone, Debug)]
struct Limits {
    main: u64,
    increment: u64,
    byoyomi: u64,
    periods: u32,
    limit: Option<u64>,
}

impl Limits {
    fn control(&self) -> Option<TimeControl> {
        TimeControl::new(
            ms(self.main * TICK),
            ms(self.increment * TICK),
            ms(self.byoyomi * TICK),
            self.periods,
            self.limit.map(|l| ms(l * TICK)),
        )
        .ok()
    }
}

fn limits() -> impl Strategy<Value = Limits> {
    (
        0u64..300,
        prop_oneof![Just(0u64), 1u64..50],
        prop_oneof![Just(0u64), 1u64..200],
        1u32..4,
        proptest::option::of(1u64..300),
    )
        .prop_map(|(main, increment, byoyomi, periods, limit)| Limits {
            main,
            increment,
            byoyomi,
            periods: if byoyomi == 0 { 0 } else { periods },
            limit,
        })
        .prop_filter("a valid control", |l| l.control().is_some())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The clock agrees with the tick model move by move; its display never shows a time
    /// outside the phase; flag_at agrees with flagged() and with press().
    #[test]
    fn clock_agrees_with_the_reference_model(
        limits in limits(),
        moves in proptest::collection::vec(0u64..500, 1..30),
    ) {
        let control = limits.control().unwrap();
        let t0 = Instant::now();
        let mut clock = Clock::new(control);
        let mut models = [
            Model { main: limits.main, periods: limits.periods },
            Model { main: limits.main, periods: limits.periods },
        ];
        clock.start(RED, t0);
        let mut t = t0;
        let mut side = RED;
        for d in moves {
            let flag_at = clock.flag_at().expect("running");
            prop_assert!(flag_at > t, "a running side has time left");
            prop_assert_eq!(clock.flagged(flag_at - ms(1)), None);
            prop_assert_eq!(clock.flagged(flag_at), Some(side));
            // While the move goes on, the side's total budget drains at exactly real speed.
            let before = clock.snapshot(t);
            let mid = t + ms(d * TICK / 2);
            if mid < flag_at {
                let during = clock.snapshot(mid);
                let budget = |s: &SideTime| {
                    if s.byoyomi {
                        s.ms + u64::from(s.periods.saturating_sub(1)) * limits.byoyomi * TICK
                    } else {
                        s.ms + u64::from(s.periods) * limits.byoyomi * TICK
                    }
                };
                let drained = budget(before.side(side)) - budget(during.side(side));
                prop_assert_eq!(drained, d * TICK / 2);
                let shown = during.side(side);
                prop_assert!(shown.ms > 0);
                if shown.byoyomi {
                    prop_assert!(shown.ms <= limits.byoyomi * TICK);
                    prop_assert!(shown.periods >= 1 && shown.periods <= limits.periods);
                }
            }
            t += ms(d * TICK);
            let expected = models[side.index()].play(&limits, d);
            let got = clock.press(t);
            prop_assert_eq!(got.is_ok(), expected.is_some(), "move of {} ticks", d);
            prop_assert_eq!(got.is_ok(), t < flag_at);
            if got.is_err() {
                prop_assert_eq!(clock.flagged(t), Some(side));
                prop_assert_eq!(clock.running(), None);
                break;
            }
            let snap = clock.snapshot(t);
            prop_assert_eq!(
                (snap.side(side).ms, snap.side(side).periods, snap.side(side).byoyomi),
                models[side.index()].shown(&limits)
            );
            side = side.other();
            prop_assert_eq!(clock.running(), Some(side));
        }
    }

    /// Snapshot at any instant, restore after any downtime: the restored clock behaves exactly
    /// like the original, shifted by the downtime.
    #[test]
    fn snapshot_restore_is_equivalent(
        limits in limits(),
        moves in proptest::collection::vec(0u64..500, 1..20),
        cut in 0usize..20,
        into in 0u64..500,
        downtime in 0u64..1_000_000,
        via_json in any::<bool>(),
    ) {
        let control = limits.control().unwrap();
        let t0 = Instant::now();
        let down = ms(downtime);
        let mut a = Clock::new(control);
        a.start(RED, t0);
        let mut b: Option<Clock> = None;
        let mut t = t0;
        let len = moves.len();
        for (i, d) in moves.into_iter().enumerate() {
            if i == cut % len {
                let at = t + ms(into.min(d) * TICK);
                let mut snap = a.snapshot(at);
                if via_json {
                    snap = serde_json::from_str(&serde_json::to_string(&snap).unwrap()).unwrap();
                }
                let restored = Clock::restore(control, &snap, at + down);
                prop_assert_eq!(restored.snapshot(at + down), a.snapshot(at));
                b = Some(restored);
            }
            t += ms(d * TICK);
            if let Some(b) = &mut b {
                match b.flag_at() {
                    Some(f) => prop_assert_eq!(Some(f), a.flag_at().map(|f| f + down)),
                    // Restored from a snapshot taken after the flag instant.
                    None => prop_assert!(a.flagged(t).is_some()),
                }
                let ra = a.press(t);
                let rb = b.press(t + down);
                prop_assert_eq!(ra, rb);
                prop_assert_eq!(a.snapshot(t), b.snapshot(t + down));
                if ra.is_err() {
                    break;
                }
            } else if a.press(t).is_err() {
                break;
            }
        }
    }
}
