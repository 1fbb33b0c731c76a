// Package jsonlines is the JSON-lines protocol of `harness run`: tool calls read one JSON object per
// input line, results written one JSON object per line, over the tools runtime of a composed kernel.
//
// One JSON object per input line:
//
//	{"id": any, "tool": "read", "args": {...}, "session": "s1", "cwd": "/abs", "model": "m"}
//
// session defaults to "default"; calls naming the same session share one observation owner;
// "session": null runs a call with no agent session; cwd (absolute) and model set that session's
// header from this call on (a new session starts with --cwd when given). One line is written and
// flushed per input line, in order:
//
//	{"id", "tool", "isError", "text", "content", "code", "errorName", "value", "meta"}
//
// text joins the text blocks with "\n"; content lists the blocks ({"type":"text","text"} or
// {"type":"image","mediaType","data"}); code/errorName are the error's structured info or null; value
// is the canonical value on success or null; meta the presentation meta or null. A malformed line
// (not a JSON object, no tool, a bad session, cwd or model) is answered with isError, code
// "INVALID_REQUEST", errorName "RequestError", and the run goes on. Every session ends at EOF.
// Approval prompts are answered by --approve (none: unavailable). An id with invalid UTF-8 is echoed
// with U+FFFD in its place, so every output line is UTF-8. A closed stdout (EPIPE) ends the run
// cleanly.
package jsonlines
