// Package patch parses the apply_patch format (Codex's grammar: Add File, Delete File, Update File
// with an optional Move to, "@@" chunks with optional context headers and "*** End of File") and
// plans an update: each chunk located in the file's lines as Codex locates it (exact, then
// trailing whitespace ignored, then surrounding whitespace ignored, then common Unicode
// punctuation normalized; context headers seek forward), then spliced into the file's own bytes
// so that every line outside a chunk keeps its bytes and its line break (docs/apply_patch.md).
//
// Nothing here touches the filesystem.
package patch
