//! Unit tests of the encounters stage's choice of room: a fit is drawn evenly
//! among the rooms that fit, and only among them.

use super::choose::{Candidate, fits};
use super::*;
use crate::Generator;

/// The room is drawn among those not yet tried until one fits: over many
/// streams it is always a fitting room, and each fitting room comes up
/// about as often as any other, as when every room was tried first.
#[test]
fn a_fit_is_drawn_evenly_among_the_fitting_rooms_only() {
    let pack = Pack::embedded().expect("the embedded pack loads");
    let generator = Generator::new(&pack, "materials").expect("materials exists");
    let mut g = generator.start(3, 0);
    g.features().expect("features");
    g.layout().expect("layout");
    let map = g.map();
    let rooms = find_rooms(map);
    let pool = &generator.map_type().encounters.as_ref().expect("materials has encounters").pool;
    // An encounter that some rooms take and some do not.
    let fitting_rooms = |e: &Encounter| -> Vec<usize> {
        let prefabs = Candidate::all(&pack, e);
        (0..rooms.len())
            .filter(|&ri| e.doors.allows(rooms[ri].doorways(map).len() as u32))
            .filter(|&ri| prefabs.iter().any(|&c| fits(map, e, &rooms[ri], c)))
            .collect()
    };
    let (e, fitting) = pool
        .iter()
        .filter(|e| e.objects.is_empty() && !e.prefabs.is_empty())
        .map(|e| (e, fitting_rooms(e)))
        .find(|(_, f)| f.len() >= 10 && f.len() < rooms.len())
        .expect("an encounter fits some rooms but not all");
    let draws = 100 * fitting.len() as u64;
    let mut chosen = vec![0u32; rooms.len()];
    for stream in 0..draws {
        let mut memo = vec![UNKNOWN; rooms.len()];
        let mut rng = Rng::stream_n(7, "test", stream);
        let Ok(fit) = choose_fit(map, &pack, e, &rooms, &mut memo, &mut rng) else { panic!("some room fits") };
        chosen[fit.room] += 1;
    }
    for (ri, &n) in chosen.iter().enumerate() {
        if fitting.contains(&ri) {
            // 100 expected each: a binomial's 6 standard deviations either side.
            assert!((40..=160).contains(&n), "room {ri} chosen {n} times in {draws}, about 100 expected");
        } else {
            assert_eq!(n, 0, "room {ri} does not fit `{}`, yet was chosen", e.id);
        }
    }
}
