use prefabric::{Generator, Pack};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
struct Counting;
static N: AtomicU64 = AtomicU64::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        N.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, s: usize) -> *mut u8 {
        N.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(p, l, s) }
    }
}
#[global_allocator]
static A: Counting = Counting;
fn main() {
    let pack = Pack::embedded().unwrap();
    let g = Generator::new(&pack, "materials").unwrap().trace(false);
    let mut c = [0u64; 8];
    let seeds = 40;
    for seed in 0..seeds {
        let mut r = g.start(seed, 0);
        let n = || N.load(Ordering::Relaxed);
        let a = n();
        r.features().unwrap();
        let b = n();
        r.layout().unwrap();
        let d = n();
        r.encounters().unwrap();
        let e = n();
        r.furnish();
        let f = n();
        r.objects();
        let h = n();
        r.theme();
        let i = n();
        r.validate().unwrap();
        let j = n();
        for (k, v) in [b - a, d - b, e - d, f - e, h - f, i - h, j - i].iter().enumerate() {
            c[k] += v;
        }
        g.recycle(r.into_map());
    }
    for (name, v) in ["features", "layout", "encounters", "furnish", "objects", "theme", "validate"].iter().zip(c) {
        println!("{name}: {:.0}", v as f64 / seeds as f64);
    }
}
