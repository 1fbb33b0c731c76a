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

// errHelp is a request for a command's help (-h, --help): printed on stdout, exit status 0.
var errHelp = errors.New("help requested")

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

// rawFlags are the flag values parseFlags converts after parsing (sizes).
type rawFlags struct{ maxBody, maxBodyTotal, minBodyRate, maxBatchBytes string }

// newFlagSet defines the flags of command cmd on a new flag set, writing into f and raw. Each
// flag's usage is its help text (a `WORD` in it names the value in the help).
func newFlagSet(cmd string, f *flags, raw *rawFlags) *flag.FlagSet {
	b := mcphost.DefaultHTTPOptions() // serve --http's bounds
	*raw = rawFlags{maxBody: "32MiB", minBodyRate: "64KiB", maxBatchBytes: "8MiB"}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and help are the command line's own (help.go)
	fs.StringVar(&f.config, "config", "", "composition YAML `FILE` (default: the embedded profile); exclusive with --profile")
	fs.StringVar(&f.profile, "profile", "", "the embedded profile `NAME`: default, sandboxed or unconfined (default \"default\")")
	fs.StringVar(&f.cwd, "cwd", "", "the workspace `DIR`: where relative paths resolve and, in the default profile, the "+
		"boundary of every read and write; it must exist and be a directory (default: the current directory)")
	fs.StringVar(&f.logLevel, "log-level", "info", "the log `LEVEL`: debug, info, warn or error; logs go to stderr")
	f.roots.define(fs)
	switch cmd {
	case "run":
		fs.StringVar(&f.approve, "approve", "", "answer every approval prompt with `MODE`: allow-once or reject (without it prompts are unavailable)")
		fs.DurationVar(&f.sessionIdle, "session-idle", jsonlines.DefaultSessionIdle, "end a session after `D` without calls")
		fs.IntVar(&f.maxSessions, "max-sessions", jsonlines.DefaultMaxSessions, "`N` sessions kept; a new one ends the least recently used")
		fs.StringVar(&f.client, "client", "", "the client `NAME` of every session, so the result budget by client applies")
	case "serve":
		fs.BoolVar(&f.structured, "structured-content", false, "list output schemas and send structuredContent (for programmatic "+
			"clients; agents such as Claude Code, Codex and opencode then show the model the JSON value instead of the text)")
		fs.IntVar(&f.maxInFlight, "max-inflight", 0, "on stdio: `N` calls in flight; at the limit no more input is read until one is answered (default 4 per core)")
		fs.IntVar(&f.maxBatch, "max-batch", 0, "on stdio: `N` messages in one JSON-RPC batch, refused whole beyond (default 1000)")
		fs.StringVar(&raw.maxBatchBytes, "max-batch-bytes", raw.maxBatchBytes, "on stdio: once a batch's answers reach `SIZE`, its calls not yet started are refused, not run")
		fs.StringVar(&f.model, "model", "", "the model `NAME` of every session served, so expose rules and the result budget keyed on the model apply")
		fs.StringVar(&f.http.Addr, "http", "", "serve MCP Streamable HTTP at `ADDR` (path /mcp; GET /healthz answers ok) instead of stdio")
		fs.StringVar(&f.tokenFile, "token-file", "", "with --http: `FILE` of name:token lines; every request needs Authorization: Bearer <token> "+
			"(required to bind an address that is not loopback)")
		fs.Func("allow-origin", "with --http: an Origin `O` allowed besides the server's own (repeatable)", func(s string) error {
			f.http.AllowOrigins = append(f.http.AllowOrigins, s)
			return nil
		})
		fs.StringVar(&raw.maxBody, "max-body", raw.maxBody, "with --http: request body limit `SIZE`, 413 beyond")
		fs.DurationVar(&f.sessionIdle, "session-idle", b.SessionIdle, "with --http: end a session after `D` without requests")
		fs.IntVar(&f.maxSessions, "max-sessions", b.MaxSessions, "with --http: `N` sessions at once, 503 beyond")
		fs.StringVar(&raw.maxBodyTotal, "max-body-total", "", "with --http: body bytes held across requests (`SIZE`); beyond, a request waits up to "+
			"--read-timeout, then 503 (default 128MiB, at least --max-body)")
		fs.IntVar(&f.http.MaxConns, "max-conns", b.MaxConns, "with --http: `N` connections at once; at the limit a new one replaces one not serving a request, or waits")
		fs.DurationVar(&f.http.ReadTimeout, "read-timeout", b.ReadTimeout, "with --http: time `D` for a request's headers, and for its body")
		fs.StringVar(&raw.minBodyRate, "min-body-rate", raw.minBodyRate, "with --http: each `SIZE` of body received adds 1s to --read-timeout")
		fs.DurationVar(&f.http.WriteTimeout, "write-timeout", b.WriteTimeout, "with --http: time `D` for the client to take each write of a response")
		fs.DurationVar(&f.http.IdleTimeout, "idle-timeout", b.IdleTimeout, "with --http: close a kept-alive connection after `D` without a request")
	case "tools":
		fs.BoolVar(&f.structured, "structured-content", false, "list output schemas (the tool list serve --structured-content sends)")
	case "history", "undo":
		historyFlags(cmd, fs, f)
	}
	return fs
}

// parseFlags parses the flags of command cmd (not setup's: setup.go).
func parseFlags(cmd string, args []string) (*flags, error) {
	f, raw := &flags{}, &rawFlags{}
	fs := newFlagSet(cmd, f, raw)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, errHelp
		}
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
		n, err := parseSize(raw.maxBody)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: --max-body: %v", errUsage, cmd, err)
		}
		f.http.MaxBody = n
		if f.maxBatchBytes, err = parseSize(raw.maxBatchBytes); err != nil {
			return nil, fmt.Errorf("%w: %s: --max-batch-bytes: %v", errUsage, cmd, err)
		}
		if err := checkHTTPFlags(f, fs); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", errUsage, cmd, err)
		}
		if err := parseHTTPBounds(f, raw.maxBodyTotal, raw.minBodyRate); err != nil {
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
