//! The pieces every page of `prefabric stats --html` shares, below the pages
//! that use them.
//!
//! In: any text, or a share. Out: the same text safe to place in HTML, or the
//! share as a percentage. Guarantees: no character of the input survives as
//! markup, inside element text or a quoted attribute value alike.

/// `text` safe inside HTML (and inline SVG) text and quoted attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A share (0 to 1) as a percentage with one decimal: `12.5%`.
pub(crate) fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}
