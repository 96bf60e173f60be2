//! Text from files and paths, made safe to print (issue 25 item 9): nothing a file
//! contributes (a name, a comment, a file name found by `mmd check`) reaches a terminal
//! as a control character or starts a line of its own.
//!
//! Names and paths are escaped as `mmd dump` escapes text
//! ([`escape_text`](mmd_formats::inspect::escape_text)); messages, which quote their own
//! values, only have their control characters escaped ([`message`]), so their quotes and
//! backslashes stay as written.

use std::borrow::Cow;
use std::path::Path;

pub use mmd_formats::inspect::escape_text as text;

/// A path as printed in text output: escaped as [`text`] escapes a name.
pub fn path(p: &Path) -> String {
    text(&p.display().to_string()).into_owned()
}

/// A message (an error, a warning) with every control character but the line feed that
/// ends a line of several escaped (`\u{1b}`, `\r`, `\t`): a value it quotes from a file
/// cannot move the cursor or ring the bell. Backslashes and quotes stay as written.
pub fn message(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if needs_escape(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One line of a report (a line that names keys, tracks or records): as [`message`], the
/// line feed escaped too, so that a name holding one cannot start a line of its own.
pub fn line(s: &str) -> Cow<'_, str> {
    if !s.contains('\n') {
        return message(s);
    }
    Cow::Owned(message(s).replace('\n', "\\n"))
}

/// A control character (C0, DEL, C1) or a bidirectional override, other than `\n`.
fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\n') || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_paths_are_escaped_messages_keep_their_quotes() {
        assert_eq!(text("右腕"), "右腕");
        assert_eq!(text("a\nb\u{1b}[2J\u{7}\r"), "a\\nb\\u{1b}[2J\\u{7}\\r");
        assert_eq!(path(Path::new("x\n.pmx")), "x\\n.pmx");
        assert_eq!(
            message("bone \"a\\b\u{1b}\" not found\n  second line\r\t\u{202e}"),
            "bone \"a\\b\\u{1b}\" not found\n  second line\\r\\t\\u{202e}"
        );
        assert!(matches!(message("plain \"quoted\""), Cow::Borrowed(_)));
        assert_eq!(
            line("bone a\nformat: VMD at 3\u{7}"),
            "bone a\\nformat: VMD at 3\\u{7}"
        );
        // Debug escaping (names) covers the bidirectional overrides too.
        assert_eq!(text("\u{202e}x"), "\\u{202e}x");
    }
}
