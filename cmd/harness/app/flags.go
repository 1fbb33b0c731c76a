package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/cordon-dev/cordon/jsonlines"
	"github.com/cordon-dev/cordon/mcphost"
)

// errUsage marks a command-line error (exit status 2).
var errUsage = errors.New("usage")

// flags are the parsed command-line options of one command.
type flags struct {
	config   string
	cwd      string // as given; "" when absent
	profile  string
	logLevel string
	approve  string
	// structured: serve and tools, --structured-content (output schemas and structuredContent).
	structured bool
	// maxInFlight: serve on stdio, --max-inflight (calls in flight per connection; 0: the default).
	maxInFlight int
	// maxBatch and maxBatchBytes: serve on stdio, --max-batch and --max-batch-bytes (0: the defaults).
	maxBatch      int
	maxBatchBytes int64
	// sessionIdle and maxSessions: run, and serve --http.
	sessionIdle time.Duration
	maxSessions int
	// model: serve, --model (the model header of every session). client: run, --client (the
	// client name of every session).
	model, client string
	// serve --http: the address, the origins allowed besides the server's own, the request body
	// limit and the connection bounds (http.Addr is "" without --http); the token file.
	http      mcphost.HTTPOptions
	tokenFile string
	workdir   string // absolute: --cwd or the process working directory
	// roots: --root, --read-only-root and --allow-broad-root (roots.go).
	roots rootFlags
	// history and undo (history.go): --json, --force, and undo's PATH|CHANGE_ID.
	json, force bool
	// undo's owner: --session ID, or --any-session (one of them is required).
	session    string
	anySession bool
	args       []string
}

// commands lists the commands with their one-line help, in usage order.
var commands = []struct{ name, help string }{
	{"serve", "serve the composed tools over MCP on stdio (one connection = one session), or HTTP with --http"},
	{"run", "execute JSON-line tool calls from stdin, one result line per input line on stdout"},
	{"tools", "print the tool definitions as JSON"},
	{"plugins", "print the plugin catalog"},
	{"config", "print the composed plugin tree"},
	{"history", "list the changes fs-history recorded under --cwd, newest first (--json for JSON)"},
	{"undo", "restore the file of PATH or CHANGE_ID to its state before that change (--session ID or --any-session: whose; --force: over later changes)"},
}

func usage(w io.Writer, name string) {
	fmt.Fprintf(w, "usage: %s <command> [flags]\n\ncommands:\n", name)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.help)
	}
	fmt.Fprintf(w, "\nflags:\n"+
		"  --config FILE      composition YAML (default: the embedded profile)\n"+
		"  --profile NAME     embedded profile (default %q)\n"+
		"  --cwd DIR          the workspace: where relative paths resolve and, in the default profile, the\n"+
		"                     boundary of every read and write (default: the current directory)\n"+
		"  --root DIR         a read-write workspace root besides --cwd (repeatable)\n"+
		"  --read-only-root DIR\n"+
		"                     a workspace root read but never written (repeatable)\n"+
		"  --allow-broad-root allow / or the home directory as a workspace root\n"+
		"  --log-level LEVEL  debug, info, warn or error (default info); logs go to stderr\n"+
		"  --approve MODE     run only: answer approval prompts with allow-once or reject\n"+
		"  --client NAME      run: the client name of every session, so the result budget by client applies\n"+
		"  --model NAME       serve: the model of every session served, so expose rules and the result budget\n"+
		"                     keyed on the model apply\n"+
		"  --structured-content\n"+
		"                     serve, tools: list output schemas and send structuredContent (for programmatic\n"+
		"                     clients; agents such as Claude Code, Codex and opencode then show the model\n"+
		"                     the JSON value instead of the text)\n"+
		"  --max-inflight N   serve on stdio: calls in flight; at the limit no more input is read until one\n"+
		"                     is answered (default 4 per core)\n"+
		"  --max-batch N      serve on stdio: messages in one JSON-RPC batch, refused whole beyond (default 1000)\n"+
		"  --max-batch-bytes SIZE\n"+
		"                     serve on stdio: once a batch's answers reach SIZE, its calls not yet started\n"+
		"                     are refused, not run (default 8MiB)\n"+
		"  --session-idle D   run, serve --http: end a session after D without requests (default 30m)\n"+
		"  --max-sessions N   run: sessions kept, a new one ends the least recently used (default 1024);\n"+
		"                     serve --http: sessions at once, 503 beyond (default 64)\n"+
		"  --http ADDR        serve: MCP Streamable HTTP at ADDR (/mcp; GET /healthz answers ok)\n"+
		"  --token-file FILE  serve --http: name:token lines; every request needs Authorization: Bearer\n"+
		"                     <token> (required to bind an address that is not loopback)\n"+
		"  --allow-origin O   serve --http: an Origin allowed besides the server's own (repeatable)\n"+
		"  --max-body SIZE    serve --http: request body limit, 413 beyond (default 32MiB)\n"+
		"  --max-body-total SIZE\n"+
		"                     serve --http: body bytes held across requests; beyond, a request waits up to\n"+
		"                     --read-timeout, then 503 (default 128MiB, at least --max-body)\n"+
		"  --max-conns N      serve --http: connections at once; at the limit a new one replaces one not\n"+
		"                     serving a request, or waits (default 256)\n"+
		"  --read-timeout D   serve --http: for a request's headers, and for its body (default 30s)\n"+
		"  --min-body-rate SIZE\n"+
		"                     serve --http: each SIZE of body received adds 1s to --read-timeout (default 64KiB)\n"+
		"  --write-timeout D  serve --http: for the client to take each write of a response (default 30s)\n"+
		"  --idle-timeout D   serve --http: close a kept-alive connection after D without a request (default 1m)\n"+
		"  --json             history: print the changes as JSON\n"+
		"  --force            undo: restore even over changes made since (a warning goes to stderr)\n"+
		"  --session ID       undo: take back a change of session ID (the SESSION column of history)\n"+
		"  --any-session      undo: take back the newest change by any session\n", DefaultProfile)
}

// parseFlags parses the flags of command cmd.
func parseFlags(cmd string, args []string, stderr io.Writer) (*flags, error) {
	f := &flags{}
	maxBodyTotal, minBodyRate, b := "", "64KiB", mcphost.DefaultHTTPOptions() // serve --http's bounds
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.config, "config", "", "composition YAML file")
	fs.StringVar(&f.cwd, "cwd", "", "working directory")
	fs.StringVar(&f.profile, "profile", "", "embedded profile")
	fs.StringVar(&f.logLevel, "log-level", "info", "debug, info, warn or error")
	f.roots.define(fs)
	maxBody, maxBatchBytes := "32MiB", "8MiB"
	switch cmd {
	case "run":
		fs.StringVar(&f.approve, "approve", "", "answer approval prompts: allow-once or reject")
		fs.DurationVar(&f.sessionIdle, "session-idle", jsonlines.DefaultSessionIdle, "end a session after this long without calls")
		fs.IntVar(&f.maxSessions, "max-sessions", jsonlines.DefaultMaxSessions, "sessions kept; a new one ends the least recently used")
		fs.StringVar(&f.client, "client", "", "the client name of every session (sizes the result budget)")
	case "serve":
		fs.BoolVar(&f.structured, "structured-content", false, "list output schemas and send structuredContent")
		fs.IntVar(&f.maxInFlight, "max-inflight", 0, "calls in flight per connection before input is paused")
		fs.IntVar(&f.maxBatch, "max-batch", 0, "messages in one JSON-RPC batch")
		fs.StringVar(&maxBatchBytes, "max-batch-bytes", maxBatchBytes, "answers held for one JSON-RPC batch")
		fs.StringVar(&f.model, "model", "", "the model of every session served")
		fs.StringVar(&f.http.Addr, "http", "", "serve MCP Streamable HTTP at this address")
		fs.StringVar(&f.tokenFile, "token-file", "", "bearer tokens, one name:token per line")
		fs.Func("allow-origin", "an Origin allowed besides the server's own", func(s string) error {
			f.http.AllowOrigins = append(f.http.AllowOrigins, s)
			return nil
		})
		fs.StringVar(&maxBody, "max-body", maxBody, "request body limit")
		fs.DurationVar(&f.sessionIdle, "session-idle", b.SessionIdle, "end a session after this long without requests")
		fs.IntVar(&f.maxSessions, "max-sessions", b.MaxSessions, "sessions at once")
		fs.StringVar(&maxBodyTotal, "max-body-total", "", "body bytes held across requests")
		fs.IntVar(&f.http.MaxConns, "max-conns", b.MaxConns, "connections at once")
		fs.DurationVar(&f.http.ReadTimeout, "read-timeout", b.ReadTimeout, "for a request's headers and body")
		fs.StringVar(&minBodyRate, "min-body-rate", minBodyRate, "body bytes a second that extend --read-timeout")
		fs.DurationVar(&f.http.WriteTimeout, "write-timeout", b.WriteTimeout, "for each write of a response")
		fs.DurationVar(&f.http.IdleTimeout, "idle-timeout", b.IdleTimeout, "close a kept-alive connection after this long idle")
	case "tools":
		fs.BoolVar(&f.structured, "structured-content", false, "list output schemas")
	case "history", "undo":
		historyFlags(cmd, fs, f)
	}
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errUsage, cmd, err)
	}
	if cmd == "undo" {
		if fs.NArg() != 1 {
			return nil, fmt.Errorf("%w: undo: give one PATH or CHANGE_ID", errUsage)
		}
		if (f.session == "") == !f.anySession {
			return nil, fmt.Errorf("%w: undo: say whose change to take back: --session ID (the SESSION column of history) or --any-session", errUsage)
		}
		f.args = fs.Args()
	} else if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: %s: unexpected argument %q", errUsage, cmd, fs.Arg(0))
	}
	if f.config != "" && f.profile != "" {
		return nil, fmt.Errorf("%w: %s: --config and --profile are exclusive", errUsage, cmd)
	}
	if (cmd == "run" || cmd == "serve") && (f.sessionIdle <= 0 || f.maxSessions <= 0) {
		return nil, fmt.Errorf("%w: %s: --session-idle and --max-sessions must be positive", errUsage, cmd)
	}
	if f.maxInFlight < 0 {
		return nil, fmt.Errorf("%w: %s: --max-inflight must be positive (got %d)", errUsage, cmd, f.maxInFlight)
	}
	if f.maxBatch < 0 {
		return nil, fmt.Errorf("%w: %s: --max-batch must be positive (got %d)", errUsage, cmd, f.maxBatch)
	}
	if cmd == "serve" {
		n, err := parseSize(maxBody)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: --max-body: %v", errUsage, cmd, err)
		}
		f.http.MaxBody = n
		if f.maxBatchBytes, err = parseSize(maxBatchBytes); err != nil {
			return nil, fmt.Errorf("%w: %s: --max-batch-bytes: %v", errUsage, cmd, err)
		}
		if err := checkHTTPFlags(f, fs); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", errUsage, cmd, err)
		}
		if err := parseHTTPBounds(f, maxBodyTotal, minBodyRate); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", errUsage, cmd, err)
		}
	}
	switch f.approve {
	case "", approveAllowOnce, approveReject:
	default:
		return nil, fmt.Errorf("%w: %s: --approve must be allow-once or reject (got %q)", errUsage, cmd, f.approve)
	}
	return f, nil
}

// checkHTTPFlags checks the flags that only mean something with --http, and refuses an address that
// is not loopback without authentication.
func checkHTTPFlags(f *flags, fs *flag.FlagSet) error {
	if f.http.Addr == "" {
		var only []string
		fs.Visit(func(fl *flag.Flag) {
			switch fl.Name {
			case "token-file", "allow-origin", "max-body", "session-idle", "max-sessions", "max-body-total",
				"max-conns", "read-timeout", "min-body-rate", "write-timeout", "idle-timeout":
				only = append(only, "--"+fl.Name)
			}
		})
		if len(only) > 0 {
			return fmt.Errorf("%s only apply with --http", strings.Join(only, ", "))
		}
		return nil
	}
	if f.maxInFlight != 0 {
		return errors.New("--max-inflight applies to stdio (over HTTP each request is its own call)")
	}
	var stdio []string
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "max-batch" || fl.Name == "max-batch-bytes" {
			stdio = append(stdio, "--"+fl.Name)
		}
	})
	if len(stdio) > 0 {
		return fmt.Errorf("%s only apply to stdio", strings.Join(stdio, ", "))
	}
	host, _, err := net.SplitHostPort(f.http.Addr)
	if err != nil {
		return fmt.Errorf("--http %q: %v", f.http.Addr, err)
	}
	if !mcphost.IsLoopbackHost(host) && f.tokenFile == "" {
		return fmt.Errorf("--http %q is not a loopback address: anyone who can reach it could read and write "+
			"files as this user, so it needs --token-file (bearer tokens) to start", f.http.Addr)
	}
	return nil
}

// parseHTTPBounds reads the sizes of the HTTP bounds and checks every bound is positive; a
// --max-body-total below --max-body could never take a body of the largest size.
func parseHTTPBounds(f *flags, maxBodyTotal, minBodyRate string) error {
	n, err := parseSize(minBodyRate)
	if err != nil {
		return fmt.Errorf("--min-body-rate: %v", err)
	}
	f.http.MinBodyRate = n
	f.http.MaxBodyTotal = max(mcphost.DefaultHTTPOptions().MaxBodyTotal, f.http.MaxBody)
	if maxBodyTotal != "" {
		if f.http.MaxBodyTotal, err = parseSize(maxBodyTotal); err != nil {
			return fmt.Errorf("--max-body-total: %v", err)
		}
		if f.http.MaxBodyTotal < f.http.MaxBody {
			return fmt.Errorf("--max-body-total (%s) is below --max-body (%d bytes)", maxBodyTotal, f.http.MaxBody)
		}
	}
	if f.http.MaxConns <= 0 || f.http.ReadTimeout <= 0 || f.http.WriteTimeout <= 0 || f.http.IdleTimeout <= 0 {
		return errors.New("--max-conns, --read-timeout, --write-timeout and --idle-timeout must be positive")
	}
	return nil
}

// parseSize reads a byte count: a number with an optional unit B, KiB, MiB or GiB (K, M, G alike).
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}}
	num, mult := s, int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a positive size (such as 32MiB)", s)
	}
	return n * mult, nil
}
