//! `prefabric.Map` and what it holds: regions, doors, placed prefabs, objects
//! and staircases.
//!
//! In: a map the library generated, and the generator that made it. Out: its
//! size and cells as NumPy arrays (role codes, walkable and passable cells), its
//! rows as text, its parts as small immutable Python objects, and its outputs
//! made by the library's own renderers — `to_json()` and `to_ascii()` are the
//! bytes `prefabric generate --format json|ascii` writes (ascii without the
//! command's comment line), `save_png()` the image `--format png` writes,
//! `explain()` the text `--explain` prints. A `Map` is immutable; every list it
//! returns is new, so changing one changes nothing else. A region, placed
//! prefab or object is a view that shares the map and reads its fields from
//! it when asked: reading a map's hundreds of regions makes one small Python
//! object each, not their doors, names and lists too.
//!
//! NumPy arrays are made by NumPy itself from the bytes (`numpy.frombuffer`,
//! then `reshape`), not through the NumPy C API: the rust-numpy crate would tie
//! the build to NumPy's headers and versions, while this works with any NumPy
//! under the stable ABI, and NumPy is imported only when an array is asked for.

use crate::errors::os_error;
use prefabric::{Point, Rect, Role, SharedGenerator, render};
use pyo3::exceptions::{PyImportError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyTuple};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

/// `(x, y, width, height)` of a rectangle.
type Bounds = (i32, i32, i32, i32);

fn bounds(r: Rect) -> Bounds {
    (r.x, r.y, r.width, r.height)
}

/// The role names, indexed by the codes `Map.terrain` holds (the library's
/// `Role::ALL` order).
pub(crate) fn role_names(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(py, Role::ALL.iter().map(|r| r.name()))
}

/// A generated map.
///
/// Get one from Generator.generate(seed). Its cells are NumPy arrays of shape
/// (height, width), indexed [y, x]: `terrain` (role codes; Map.role_names[code]
/// names them), `walkable` and `passable`. `glyphs` is the map as text rows.
/// `regions`, `prefabs`, `objects` and `stairs` list its parts. to_json(),
/// to_ascii(), save_png() and explain() give what the `prefabric` command
/// writes for the same seed.
#[pyclass(frozen, module = "prefabric", name = "Map")]
pub struct PyMap {
    /// The library's map, shared with the regions, prefabs and objects read
    /// from it, which read their fields from it when asked.
    map: Arc<prefabric::Map>,
    /// The generator that made it: its pack, for rendering, and the way to
    /// make it again traced for explain().
    generator: SharedGenerator,
    /// Whether `map` holds its trace.
    traced: bool,
}

impl PyMap {
    /// Wraps a map `generator` made; `traced` when the generator kept its trace.
    pub(crate) fn new(map: prefabric::Map, generator: SharedGenerator, traced: bool) -> PyMap {
        PyMap { map: Arc::new(map), generator, traced }
    }

    fn pack(&self) -> &prefabric::Pack {
        self.generator.pack()
    }

    /// The map made again with its trace, unless it has it.
    fn with_trace<T>(&self, py: Python<'_>, read: impl FnOnce(&prefabric::Map) -> T + Send) -> PyResult<T>
    where
        T: Send,
    {
        if self.traced {
            return Ok(read(&self.map));
        }
        let generator = self.generator.clone().trace(true);
        let seed = self.map.seed();
        py.detach(|| generator.generate(seed).map(|m| read(&m)))
            .map_err(|e| crate::errors::GenerationError::new_err(e.to_string()))
    }

    /// One byte a cell, in reading order.
    fn cells(&self, cell: impl Fn(usize, &prefabric::Terrain) -> u8) -> Vec<u8> {
        self.map.terrain().cells().iter().enumerate().map(|(i, t)| cell(i, t)).collect()
    }

    /// A read-only NumPy array of shape (height, width) over `bytes`.
    fn array<'py>(&self, py: Python<'py>, bytes: Vec<u8>, dtype: &str) -> PyResult<Bound<'py, PyAny>> {
        static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let frombuffer = FROMBUFFER
            .import(py, "numpy", "frombuffer")
            .map_err(|e| PyImportError::new_err(format!("Map arrays need NumPy (pip install numpy): {e}")))?;
        let flat = frombuffer.call1((PyBytes::new(py, &bytes), dtype))?;
        flat.call_method1("reshape", ((self.map.height(), self.map.width()),))
    }
}

#[pymethods]
impl PyMap {
    /// The role names, indexed by the codes of Map.terrain: ('earth',
    /// 'blocked', 'wall', 'room', 'hall', 'corridor', 'junction', 'cave',
    /// 'door', 'secret_door', 'stairs_up', 'stairs_down', 'liquid', 'stairs').
    #[classattr]
    fn role_names(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        role_names(py)
    }

    /// Width in cells.
    #[getter]
    fn width(&self) -> i32 {
        self.map.width()
    }

    /// Height in cells.
    #[getter]
    fn height(&self) -> i32 {
        self.map.height()
    }

    /// The seed it was generated from.
    #[getter]
    fn seed(&self) -> u64 {
        self.map.seed()
    }

    /// The depth it was generated for.
    #[getter]
    fn depth(&self) -> u32 {
        self.map.depth()
    }

    /// The name of its map type.
    #[getter]
    fn map_type(&self) -> &str {
        self.map.map_type()
    }

    /// How many attempts failed before this map (0 when the seed's first did not).
    #[getter]
    fn attempt(&self) -> u32 {
        self.map.attempt()
    }

    /// The feature variant chosen, or None when the map type has none.
    #[getter]
    fn feature_variant(&self) -> Option<&str> {
        self.map.feature_variant()
    }

    /// The layout generator that made it: "tunnelers", "chain", "pathways" or "caves".
    #[getter]
    fn layout(&self) -> &'static str {
        self.map.layout_stats().generator
    }

    /// How the pack's walkers step: "orthogonal" or "diagonal".
    #[getter]
    fn moves(&self) -> &'static str {
        self.map.moves().name()
    }

    /// Every cell's role code as a read-only NumPy uint8 array of shape
    /// (height, width), indexed [y, x]; Map.role_names[code] is the role's name.
    #[getter]
    fn terrain<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let codes = self.cells(|_, t| t.role_index() as u8);
        self.array(py, codes, "uint8")
    }

    /// Every cell's theme variant (0-9) as a read-only NumPy uint8 array of
    /// shape (height, width).
    #[getter]
    fn variants<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let variants = self.cells(|_, t| t.variant());
        self.array(py, variants, "uint8")
    }

    /// Where a walker can stand (floors, doors, stairs) as a read-only NumPy
    /// bool array of shape (height, width).
    #[getter]
    fn walkable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let walkable = self.cells(|_, t| u8::from(t.is_walkable()));
        self.array(py, walkable, "bool")
    }

    /// Where a walker can pass: walkable cells with no machine on them, as a
    /// read-only NumPy bool array of shape (height, width). Every passable
    /// cell reaches every other (stepping as Map.moves says).
    #[getter]
    fn passable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let width = self.map.width().max(1) as usize;
        let passable = self.cells(|i, _| {
            let p = Point::new((i % width) as i32, (i / width) as i32);
            u8::from(self.map.is_passable(p))
        });
        self.array(py, passable, "bool")
    }

    /// The map as text, one string per row, drawn with the palette's glyphs
    /// (objects over terrain): to_ascii()'s lines.
    #[getter]
    fn glyphs(&self) -> Vec<String> {
        render::ascii(&self.map, self.pack().palette()).lines().map(str::to_string).collect()
    }

    /// True when a walker can stand at (x, y); False outside the map.
    fn is_walkable(&self, x: i32, y: i32) -> bool {
        self.map.is_walkable(Point::new(x, y))
    }

    /// True when a walker can pass (x, y): walkable, and no machine on it.
    fn is_passable(&self, x: i32, y: i32) -> bool {
        self.map.is_passable(Point::new(x, y))
    }

    /// The region (x, y) belongs to, or None.
    fn region_at(&self, x: i32, y: i32) -> Option<PyRegion> {
        self.map.region_at(Point::new(x, y)).map(|r| PyRegion { map: Arc::clone(&self.map), id: r.id })
    }

    /// The ids of the regions a walker can step into from region `id`
    /// (empty for an id the map does not have).
    fn neighbours(&self, id: u32) -> Vec<u32> {
        self.map.neighbours(id)
    }

    /// The fewest regions a walker passes through from region `start` to
    /// region `end`, both included, as a list of ids; None when either id is
    /// not on the map or nothing joins them.
    fn region_path(&self, start: u32, end: u32) -> Option<Vec<u32>> {
        self.map.region_path(start, end)
    }

    /// Every region (rooms, halls, corridors, junctions, caverns, passages,
    /// prefabs' open cells), indexed by id.
    #[getter]
    fn regions(&self) -> Vec<PyRegion> {
        (0..self.map.regions().len() as u32).map(|id| PyRegion { map: Arc::clone(&self.map), id }).collect()
    }

    /// Every placed prefab, in placement order.
    #[getter]
    fn prefabs(&self) -> Vec<PyPlacedPrefab> {
        (0..self.map.prefabs().len()).map(|index| PyPlacedPrefab { map: Arc::clone(&self.map), index }).collect()
    }

    /// The prefabs the map type placed as features, in placement order: its
    /// entrances, exits and set pieces (a staircase one drew names it).
    #[getter]
    fn features(&self) -> Vec<PyPlacedPrefab> {
        let features = self.map.prefabs().iter().enumerate().filter(|(_, p)| p.stage == prefabric::Stage::Feature);
        features.map(|(index, _)| PyPlacedPrefab { map: Arc::clone(&self.map), index }).collect()
    }

    /// Every object (machines, entities, items, props, traps, debris), in
    /// placement order.
    #[getter]
    fn objects(&self) -> Vec<PyObject_> {
        let pack = self.generator.pack();
        (0..self.map.objects().len())
            .map(|index| PyObject_ { map: Arc::clone(&self.map), pack: Arc::clone(pack), index })
            .collect()
    }

    /// Every staircase, up first, each in reading order of its first cell:
    /// where a game puts the player (role "up") and where the way on is ("down").
    #[getter]
    fn stairs(&self) -> Vec<PyStaircase> {
        self.map.stairs().into_iter().map(PyStaircase::of).collect()
    }

    /// The map as one line of JSON and a newline, in the schema of
    /// docs/json-schema.md: the bytes of `prefabric generate --format json`
    /// (with trace=True, of `--format json --explain`, which lists the trace).
    #[pyo3(signature = (*, trace = false))]
    fn to_json(&self, py: Python<'_>, trace: bool) -> PyResult<String> {
        if !trace {
            return Ok(render::json(&self.map, self.pack()));
        }
        let pack = self.pack();
        self.with_trace(py, |m| render::json_with_trace(m, pack))
    }

    /// The map as text, each row ending in a newline: what `prefabric generate
    /// --format ascii` prints after its first (comment) line.
    fn to_ascii(&self) -> String {
        render::ascii(&self.map, self.pack().palette())
    }

    /// The map as a PNG image's bytes: what `prefabric generate --format png`
    /// writes with the same options. `scale`: pixels per cell side, 1-32;
    /// `highlight`: None, "category" or "stage" (outline every placed prefab);
    /// `legend`: add a legend of the colours below the map.
    #[pyo3(signature = (*, scale = 4, highlight = None, legend = false))]
    fn to_png<'py>(
        &self,
        py: Python<'py>,
        scale: u32,
        highlight: Option<&str>,
        legend: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let options = png_options(scale, highlight, legend)?;
        let palette = self.pack().palette();
        let png = py
            .detach(|| render::map_png(&self.map, palette, &options))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyBytes::new(py, &png))
    }

    /// Writes the map as a PNG image to `path` (a str or os.PathLike): the
    /// file `prefabric generate --out PATH.png` writes with the same options
    /// (see to_png).
    #[pyo3(signature = (path, *, scale = 4, highlight = None, legend = false))]
    fn save_png(
        &self,
        py: Python<'_>,
        path: PathBuf,
        scale: u32,
        highlight: Option<&str>,
        legend: bool,
    ) -> PyResult<()> {
        let options = png_options(scale, highlight, legend)?;
        let palette = self.pack().palette();
        let png = py
            .detach(|| render::map_png(&self.map, palette, &options))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        std::fs::write(&path, png).map_err(|e| os_error("write", &path, &e))
    }

    /// Every decision behind the map, one line each ("[stage] outcome:
    /// message"): the text `prefabric generate --explain` prints. A map made
    /// without its trace is made again, traced (the same map), to tell.
    fn explain(&self, py: Python<'_>) -> PyResult<String> {
        self.with_trace(py, trace_text)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Map {} seed={} depth={} {}x{}: {} regions, {} prefabs, {} objects>",
            self.map.map_type(),
            self.map.seed(),
            self.map.depth(),
            self.map.width(),
            self.map.height(),
            self.map.regions().len(),
            self.map.prefabs().len(),
            self.map.objects().len()
        )
    }
}

/// The PNG options the command line's flags give.
fn png_options(scale: u32, highlight: Option<&str>, legend: bool) -> PyResult<render::PngOptions> {
    let highlight = match highlight {
        None => None,
        Some("category") => Some(render::Highlight::Category),
        Some("stage") => Some(render::Highlight::Stage),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "highlight must be None, \"category\" or \"stage\", got {other:?}"
            )));
        }
    };
    Ok(render::PngOptions { scale, highlight, legend })
}

/// A way out of a region: a door cell or an opening in its wall (in
/// Region.doors), or a cell where it meets another region with no door (in
/// Region.openings); `to` is the region on the other side.
#[pyclass(frozen, module = "prefabric", name = "Door")]
#[derive(Clone)]
pub struct PyDoor {
    /// The door cell, (x, y), on the region's wall line; for an opening, the
    /// first cell of the region beyond.
    #[pyo3(get)]
    at: (i32, i32),
    /// Which side of the region it is on: "north", "east", "south" or "west".
    #[pyo3(get)]
    side: &'static str,
    /// The id of the region on its other side, or None for a doorway that
    /// leads nowhere a walker can step.
    #[pyo3(get)]
    to: Option<u32>,
}

impl PyDoor {
    fn of(d: &prefabric::Door) -> PyDoor {
        PyDoor { at: (d.at.x, d.at.y), side: d.side.name(), to: d.to }
    }
}

#[pymethods]
impl PyDoor {
    fn __repr__(&self) -> String {
        let to = self.to.map_or("None".to_string(), |t| t.to_string());
        format!("Door(at={:?}, side={:?}, to={to})", self.at, self.side)
    }
}

/// An area of the map: a room, hall, corridor, junction, cavern ("cave"),
/// passage, or the open cells of a placed prefab ("prefab").
#[pyclass(frozen, freelist = 1024, module = "prefabric", name = "Region")]
pub struct PyRegion {
    /// The map it is part of.
    map: Arc<prefabric::Map>,
    /// Its index in the map's regions.
    id: u32,
}

impl PyRegion {
    fn region(&self) -> &prefabric::Region {
        &self.map.regions()[self.id as usize]
    }
}

#[pymethods]
impl PyRegion {
    /// Its index in Map.regions.
    #[getter]
    fn id(&self) -> u32 {
        self.id
    }

    /// What kind of area: "room", "hall", "corridor", "junction", "cave", "passage" or "prefab".
    #[getter]
    fn kind(&self) -> &'static str {
        self.region().kind.name()
    }

    /// The kind the layout gave it (an encounter may turn a room into a "prefab").
    #[getter]
    fn laid_out_as(&self) -> &'static str {
        self.region().laid_out_as.name()
    }

    /// The smallest rectangle holding its cells: (x, y, width, height).
    #[getter]
    fn bounds(&self) -> Bounds {
        bounds(self.region().bounds)
    }

    /// How many cells belong to it.
    #[getter]
    fn area(&self) -> u32 {
        self.region().area
    }

    /// Its doors, as the stage that made it recorded them (door cells,
    /// doorways, connectors, link marks), each naming the region beyond.
    #[getter]
    fn doors(&self) -> Vec<PyDoor> {
        self.region().doors.iter().map(PyDoor::of).collect()
    }

    /// Where a walker steps straight into another region with no door of
    /// this one there (a corridor meeting a junction, a cavern opening into
    /// a passage): with doors, every way out.
    #[getter]
    fn openings(&self) -> Vec<PyDoor> {
        self.region().openings.iter().map(PyDoor::of).collect()
    }

    /// The ids of the regions a walker can step into from this one, sorted.
    #[getter]
    fn neighbours(&self) -> Vec<u32> {
        self.map.neighbours(self.id)
    }

    /// For a "prefab" region, the index of its prefab in Map.prefabs; else None.
    #[getter]
    fn prefab(&self) -> Option<usize> {
        self.region().prefab
    }

    /// For a cavern, its most central cell (x, y); else None.
    #[getter]
    fn centre(&self) -> Option<(i32, i32)> {
        self.region().centre.map(|c| (c.x, c.y))
    }

    fn __repr__(&self) -> String {
        let r = self.region();
        format!(
            "<Region {} {} at {:?}, {} cells, {} doors, neighbours {:?}>",
            r.id,
            r.kind.name(),
            bounds(r.bounds),
            r.area,
            r.doors.len(),
            self.map.neighbours(r.id)
        )
    }
}

/// A prefab placed on the map.
#[pyclass(frozen, freelist = 1024, module = "prefabric", name = "PlacedPrefab")]
pub struct PyPlacedPrefab {
    /// The map it is part of.
    map: Arc<prefabric::Map>,
    /// Its index in the map's prefabs.
    index: usize,
}

impl PyPlacedPrefab {
    fn placed(&self) -> &prefabric::PlacedPrefab {
        &self.map.prefabs()[self.index]
    }
}

#[pymethods]
impl PyPlacedPrefab {
    /// The prefab's name in the pack.
    #[getter]
    fn name(&self) -> &str {
        &self.placed().name
    }

    /// The stage that placed it: "feature", "layout" or "encounter".
    #[getter]
    fn stage(&self) -> &'static str {
        self.placed().stage.name()
    }

    /// Where it lies: (x, y, width, height).
    #[getter]
    fn bounds(&self) -> Bounds {
        bounds(self.placed().bounds)
    }

    /// How it was turned: "r0", "r90", "r180", "r270", "flip", "flip-r90", ...
    #[getter]
    fn transform(&self) -> &'static str {
        self.placed().transform.name()
    }

    /// The region it was placed in (an encounter's room), or None.
    #[getter]
    fn region(&self) -> Option<u32> {
        self.placed().region
    }

    /// The id of the encounter that placed it, or None.
    #[getter]
    fn encounter(&self) -> Option<&str> {
        self.placed().encounter.as_ref().map(|e| e.id.as_str())
    }

    /// The encounter's category ("fluff", "risk-reward", "danger", "reward"), or None.
    #[getter]
    fn category(&self) -> Option<&'static str> {
        self.placed().encounter.as_ref().map(|e| e.category.name())
    }

    /// For a prefab with variation lines, the seed of the outcome placed; else None.
    #[getter]
    fn variant(&self) -> Option<u32> {
        self.placed().variant
    }

    fn __repr__(&self) -> String {
        let p = self.placed();
        let encounter = p.encounter.as_ref().map_or(String::new(), |e| format!(" encounter {}", e.id));
        format!(
            "<PlacedPrefab {} {} {} at {:?}{encounter}>",
            p.name,
            p.stage.name(),
            p.transform.name(),
            bounds(p.bounds)
        )
    }
}

/// A thing on the map: a machine, entity, item, prop, trap or debris.
#[pyclass(frozen, freelist = 1024, module = "prefabric", name = "Object")]
#[allow(non_camel_case_types)]
pub struct PyObject_ {
    /// The map it is part of.
    map: Arc<prefabric::Map>,
    /// The pack, whose catalog names it.
    pack: Arc<prefabric::Pack>,
    /// Its index in the map's objects.
    index: usize,
}

impl PyObject_ {
    fn object(&self) -> &prefabric::Object {
        &self.map.objects()[self.index]
    }
}

#[pymethods]
impl PyObject_ {
    /// What it is: "machine", "entity", "item", "prop", "trap" or "debris".
    #[getter]
    fn kind(&self) -> &'static str {
        self.object().kind.name()
    }

    /// Its catalog tag; None for a machine no definition names.
    #[getter]
    fn tag(&self) -> Option<&str> {
        self.object().tag.as_deref()
    }

    /// Its catalog entry's name; None where the catalog has none.
    #[getter]
    fn name(&self) -> Option<&str> {
        let o = self.object();
        o.tag.as_deref().and_then(|tag| self.pack.catalog().name_of(o.kind, tag))
    }

    /// Its first cell in reading order, (x, y).
    #[getter]
    fn position(&self) -> (i32, i32) {
        let first = self.object().cells.first().map_or(Point::default(), |c| c.0);
        (first.x, first.y)
    }

    /// Every cell it covers with the glyph drawn there: (x, y, glyph).
    #[getter]
    fn cells(&self) -> Vec<(i32, i32, char)> {
        self.object().cells.iter().map(|&(p, g)| (p.x, p.y, g)).collect()
    }

    /// The placed prefab it belongs to (an index into Map.prefabs), or None.
    #[getter]
    fn prefab(&self) -> Option<usize> {
        self.object().prefab
    }

    /// Game keywords from its definition as (name, value) pairs, value None for flags.
    #[getter]
    fn keywords(&self) -> Vec<(String, Option<String>)> {
        self.object().keywords.clone()
    }

    /// True when walkers cannot pass its cells (machines).
    #[getter]
    fn blocks(&self) -> bool {
        self.object().blocks()
    }

    fn __repr__(&self) -> String {
        let what = self.name().or(self.tag()).unwrap_or("untagged").to_string();
        format!("<Object {} {what:?} at {:?}>", self.kind(), self.position())
    }
}

/// A staircase: a 4-connected group of stairs cells.
#[pyclass(frozen, module = "prefabric", name = "Staircase")]
pub struct PyStaircase {
    /// "up" (the way in, where the player starts) or "down" (the way on).
    #[pyo3(get)]
    role: &'static str,
    /// Its cells (x, y) in reading order; never empty.
    #[pyo3(get)]
    cells: Vec<(i32, i32)>,
    /// The region its first cell belongs to, or None.
    #[pyo3(get)]
    region: Option<u32>,
    /// The placed prefab that drew it (an index into Map.prefabs), or None.
    #[pyo3(get)]
    prefab: Option<usize>,
}

impl PyStaircase {
    fn of(s: prefabric::Staircase) -> PyStaircase {
        PyStaircase {
            role: if s.role == Role::StairsUp { "up" } else { "down" },
            cells: s.cells.iter().map(|p| (p.x, p.y)).collect(),
            region: s.region,
            prefab: s.prefab,
        }
    }
}

#[pymethods]
impl PyStaircase {
    fn __repr__(&self) -> String {
        format!(
            "<Staircase {} at {:?}, {} cells>",
            self.role,
            self.cells.first().copied().unwrap_or_default(),
            self.cells.len()
        )
    }
}

/// A traced map's decisions, one line each, as `--explain` prints them.
pub(crate) fn trace_text(map: &prefabric::Map) -> String {
    let mut text = String::new();
    for event in map.trace().events() {
        let _ = writeln!(text, "{event}");
    }
    text
}
