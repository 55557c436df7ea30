use super::*;
use crate::read::read;

fn one(text: &str) -> Result<Vault, Skip> {
    let f = read("t.des", text);
    translate(&f.maps[0], Moves::Diagonal)
}

#[test]
fn a_plain_vault_keeps_its_drawing_meanings_and_objects() {
    let v = one("NAME: small_one\nDEPTH: D:2-4\nTAGS: no_rotate allow_dup\nMAP\nxxxxx\nx.1.x\nx.*.x\nxx+xx\nENDMAP\n")
        .expect("imports");
    assert_eq!(v.name, "small_one");
    assert_eq!(v.grid[1], ['x', '.', '①', '.', 'x']);
    assert_eq!(v.legend[&'x'].0, "wall");
    assert_eq!(v.legend[&'+'].0, "door");
    let (terrain, reference) = &v.legend[&'①'];
    assert_eq!((terrain.as_str(), reference.is_some()), ("room", true));
    assert_eq!(v.lines.len(), 2);
    assert_eq!(v.lines[0].alts[0].tag, "random_monster");
    assert_eq!(v.lines[1].alts[0].keywords, ["LEVEL_BONUS=5"]);
    assert_eq!(v.depth, [(2, 4)]);
    assert_eq!(v.max_per_world, None, "allow_dup");
    assert_eq!(v.transforms.len(), 4, "mirrors only: {}", v.transforms.describe());
    assert!(v.losses.is_empty(), "{:?}", v.losses);
}

#[test]
fn rules_k_lines_and_slots_translate() {
    let text = "NAME: rules\nMONS: orc / goblin w:5, rat\nITEM: potion of curing\nSUBST: a = x.\nNSUBST: b = 1:2 / *:.\nKFEAT: c = altar_zin\nKMONS: e = generate_awake ogre\nKFEAT: f = w / l\nMAP\nab1c\nedf.\nENDMAP\n";
    let v = one(text).expect("imports");
    assert_eq!(v.rules.len(), 3, "{:?}", v.rules);
    assert!(matches!(&v.rules[2], Rule::Subst { from, .. } if from == &['f']), "KFEAT alternatives become a last rule");
    let orc = v.lines.iter().find(|l| l.alts[0].tag == "orc").expect("slot 1");
    assert_eq!(orc.alts.iter().map(|a| (a.tag.as_str(), a.weight)).collect::<Vec<_>>(), [("orc", 10), ("goblin", 5)]);
    assert!(v.lines.iter().any(|l| l.alts[0].tag == "rat"), "slot 2 through NSUBST");
    assert!(v.lines.iter().any(|l| l.alts[0].tag == "potion_of_curing"), "d is item slot 1");
    assert!(v.lines.iter().any(|l| l.alts[0].tag == "altar_zin" && l.kind == Kind::Prop));
    assert!(v.lines.iter().any(|l| l.alts[0].tag == "ogre" && l.alts[0].keywords == ["GENERATE_AWAKE"]));
    assert!(v.losses.is_empty(), "{:?}", v.losses);
}

#[test]
fn lua_subvaults_and_dummies_are_skipped_with_their_line() {
    let s = one("NAME: l\n: if x then\nMAP\n.\nENDMAP\n").expect_err("lua");
    assert_eq!((s.reason.as_str(), s.at.line), ("uses Lua", 2));
    assert_eq!(one("NAME: s\nSUBVAULT: a : t\nMAP\na\nENDMAP\n").expect_err("sub").reason, "sub-vaults");
    assert_eq!(one("NAME: d\nTAGS: dummy\nMAP\n.\nENDMAP\n").expect_err("dummy").reason, "dummy");
    assert_eq!(one("NAME: n\nTAGS: x\n").expect_err("grid").reason, "no grid");
    // Cell properties become cell marks of the glyph's legend line; one
    // taken away, or drawn at random, is a loss.
    let k = one("NAME: k\nKMASK: a = no_monster_gen\nKPROP: ab = no_tele_into\nMAP\nab\nENDMAP\n").expect("imports");
    assert!(k.losses.is_empty(), "{:?}", k.losses);
    assert_eq!(k.marks[&'a'], ["no_monster_gen", "no_tele_into"]);
    assert_eq!(k.marks[&'b'], ["no_tele_into"]);
    let r = one("NAME: r\nKMASK: a = !no_monster_gen\nKPROP: a = no_cloud_gen / nothing\nMAP\na\nENDMAP\n")
        .expect("imports with losses");
    assert_eq!(r.losses.len(), 2, "{:?}", r.losses);
    assert!(r.marks.is_empty());
    // Masks from DCSS's level fixups, which prefabric never runs, lose nothing.
    let f = one("NAME: f\nKMASK: a = no_pool_fixup / !no_wall_fixup\nMAP\na\nENDMAP\n").expect("imports");
    assert!(f.losses.is_empty(), "{:?}", f.losses);
    // Nor does `opaque`: the imported floor is one area the map reaches.
    let o = one("NAME: o\nKMASK: a = opaque\nKMASK: b = !opaque\nMAP\nab\nENDMAP\n").expect("imports");
    assert!(o.losses.is_empty(), "{:?}", o.losses);
    let mixed = one("NAME: m\nKMASK: a = no_pool_fixup / no_item_gen\nMAP\na\nENDMAP\n").expect("imports");
    assert_eq!(mixed.losses.len(), 1);
}

#[test]
fn dcss_orientations_become_transform_sets() {
    let tags = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(dcss_transforms(&tags(&[])), TransformSet::ALL);
    assert_eq!(dcss_transforms(&tags(&["no_rotate", "no_hmirror", "no_vmirror"])), TransformSet::IDENTITY);
    let turns_only = dcss_transforms(&tags(&["no_hmirror", "no_vmirror"]));
    assert_eq!(turns_only.describe(), "r0 r90 r270", "no half turn without both mirrors");
}
