//! The pack's prefabs as the files that name them see them (map types, their
//! generators' pools, encounters, definition files): by name and by tag, together
//! with what the prefab files that failed to load declared.
//!
//! Goes in: the prefabs that loaded, and a [`Declared`] header for each prefab
//! that did not (a grid or header error, an image cut short, a palette that did not
//! load). Comes out: lookups, and the problem to report for a name or tag that
//! resolves to nothing — or none at all when the name is that of a prefab whose own
//! file is broken. That file's problems are already reported; a second error, with
//! a "did you mean" pointing at some other prefab, would send the designer the
//! wrong way. The "did you mean" searches over names and tags are indexed once,
//! when first asked, so a pool of many unknown names costs little per name.

use crate::format::Suggester;
use crate::prefab::{Declared, Prefab};
use std::cell::OnceCell;
use std::collections::BTreeMap;

/// Prefabs by name and tag, and the prefabs that were declared but did not load.
pub(crate) struct PrefabIndex<'p> {
    prefabs: &'p [Prefab],
    by_name: &'p BTreeMap<String, usize>,
    unread: &'p [Declared],
    /// The names, for suggestions, made when first needed.
    names: OnceCell<Suggester<'p>>,
    /// Every tag once, sorted, for suggestions, made when first needed.
    tags: OnceCell<Suggester<'p>>,
}

impl<'p> PrefabIndex<'p> {
    /// An index over `prefabs` (`by_name` maps a name to its position there).
    pub fn new(prefabs: &'p [Prefab], by_name: &'p BTreeMap<String, usize>, unread: &'p [Declared]) -> Self {
        PrefabIndex { prefabs, by_name, unread, names: OnceCell::new(), tags: OnceCell::new() }
    }

    /// Every prefab that loaded, in file order.
    pub fn prefabs(&self) -> &'p [Prefab] {
        self.prefabs
    }

    /// The prefab named `name`.
    pub fn get(&self, name: &str) -> Option<&'p Prefab> {
        self.by_name.get(name).map(|&i| &self.prefabs[i])
    }

    /// The prefabs that carry `tag`, in file order.
    pub fn tagged<'a>(&'a self, tag: &'a str) -> impl Iterator<Item = &'p Prefab> + 'a {
        self.prefabs.iter().filter(move |p| p.tags().iter().any(|t| t == tag))
    }

    /// The problem with naming `name` when [`get`](Self::get) found nothing: the
    /// message and a hint (a close name, else `help`). None when a prefab of that name
    /// is declared in a file that did not load.
    pub fn unknown_name(&self, name: &str, help: &str) -> Option<(String, String)> {
        if self.unread.iter().any(|d| d.name == name) {
            return None;
        }
        let by_name: &'p BTreeMap<String, usize> = self.by_name;
        let names = self.names.get_or_init(|| Suggester::new(by_name.keys().map(String::as_str)));
        let help = match names.suggest(name) {
            Some(s) => format!("did you mean `{s}`?"),
            None => help.to_string(),
        };
        Some((format!("no prefab named `{name}` in this pack"), help))
    }

    /// The problem with naming `tag` when no prefab that loaded carries it, as
    /// [`unknown_name`](Self::unknown_name) gives it; `prefix` is written before a
    /// suggested tag (`tag:` where tags are written so).
    pub fn unknown_tag(&self, tag: &str, prefix: &str) -> Option<(String, String)> {
        if self.unread.iter().any(|d| d.tags.iter().any(|t| t == tag)) {
            return None;
        }
        let tags = self.tags.get_or_init(|| {
            let prefabs = self.prefabs;
            let mut tags: Vec<&'p str> = prefabs.iter().flat_map(|p| p.tags().iter().map(String::as_str)).collect();
            tags.sort_unstable();
            tags.dedup();
            Suggester::new(tags)
        });
        let help = match tags.suggest(tag) {
            Some(s) => format!("did you mean `{prefix}{s}`?"),
            None => "tags are listed on a prefab's `tags:` line".to_string(),
        };
        Some((format!("no prefab has the tag `{tag}`"), help))
    }

    /// True when a prefab that did not load would use the definition file `defs`.
    pub fn unread_uses_defs(&self, defs: &str) -> bool {
        self.unread.iter().any(|d| d.defs == defs)
    }
}
