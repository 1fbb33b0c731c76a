// Package app is the harness host as a library: the command line of cmd/harness (serve, run, tools,
// plugins, config), reusable by custom hosts that add their own plugins.
//
// # Commands
//
//	harness serve   serve the composed tools over MCP on stdio, or Streamable HTTP with --http
//	harness run     JSON-line tool calls on stdin, one result line each on stdout
//	harness tools   print the tool definitions as JSON (exactly what tools/list sends)
//	harness plugins print the catalog, one module per line with the services it waits for
//	harness config  compose and print the plugin tree with each entry's state
//	harness history list the changes fs-history recorded, newest first
//	harness undo    PATH|CHANGE_ID: restore a file to its state before a change
//	harness setup   CLIENT: print or write a client's configuration for this binary
//	harness version print the version (also --version)
//	harness help    [COMMAND]: the usage text, or a command's help with examples (also COMMAND --help)
//
// Each command's flags are in its help (help.go builds it from the flag definitions) and in
// docs/host.md. A usage error exits 2 with one line and a hint (run 'harness help serve').
//
// Without --config an embedded profile is composed: "default" (fs-local with cwd = --cwd or the
// working directory, fs-observation-policy, tools, tool-fs, tool-fs-search, attachment-local, model-catalog) or
// "sandboxed" (sandbox-policy in workspace-write with the workspace = that directory, fs-sandbox in
// place of fs-local, and user-approval). Every enabled entry must become
// active (the boot audit): an unknown plugin, an unknown config key, a bad value or a missing
// dependency fails at start with a message naming the entry, and exit status 1. Usage errors exit
// with 2. Logs go to stderr (zap, console encoding); stdout carries only the protocol or the
// printed output. serve and run log one ready line naming the config and the tools.
//
// # serve and run
//
// serve is package mcphost behind the command line (docs/host.md, docs/http.md); run is package
// jsonlines (docs/host.md "harness run"). --model names the model of every session serve serves,
// --client the client of every session of run.
//
// # Custom hosts
//
// A custom host is the stock harness plus its plugins, in a ten-line main:
//
//	func main() {
//		os.Exit(app.Main(os.Args[1:],
//			app.WithModules(auditlog.Module),
//			app.WithEntries(app.MustEntry("audit-log", map[string]any{"path": "audit.jsonl"}))))
//	}
//
// WithModules adds plugins by their fx modules, the one way a host includes a plugin (a
// composition names them); WithEntries appends entries to the embedded profiles; WithProfile adds
// or replaces a profile. Main owns the process (signals, GOGC=400 unless GOGC is set,
// a soft memory limit of 256 MiB unless GOMEMLIMIT is set);
// MainContext runs the same command line under a caller's context without touching process state.
package app
