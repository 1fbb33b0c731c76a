// Package auditlog is a third-party Cordon plugin, "audit-log", kept in its own Go module to show
// how plugins outside the repository are written and added to a host.
//
// It registers one asynchronous listener (kernel.Async) on the tools runtime's result event
// ("tools/result") and appends one JSON line per finished tool call to a file:
//
//	{"time":"2026-01-02T15:04:05.000000001Z","callId":"call_1","tool":"read","session":"default",
//	 "isError":false,"code":null,"args":{"file_path":"a.txt"}}
//
// session is null for a call with no agent session; code is the error code of a coded failure or
// null. Arguments longer than maxArgBytes are replaced by {"truncated":true,"bytes":N}. Being
// asynchronous, the listener never delays or changes a call; the kernel drains it on shutdown, so
// every call made before Close is in the file, unless more results were waiting than the kernel's
// async queue holds (kernel.DefaultAsyncQueue): those are dropped, counted and logged at warn.
//
// When writing a line would grow the file past maxBytes, the file is rotated first: path.N-1 becomes
// path.N (the oldest is dropped), ..., path becomes path.1, and a new path is started.
//
// Config (YAML keys; all optional):
//
//	path:        the log file (default $XDG_STATE_HOME/cordon/audit.jsonl, or ~/.local/state/...)
//	maxBytes:    rotation size in bytes (default 10485760)
//	maxFiles:    rotated files kept (default 3)
//	maxArgBytes: largest args recorded verbatim (default 4096)
//
// The plugin imports only the kernel and the tools seam, never a provider: removing it from a
// composition leaves every other plugin working.
package auditlog
