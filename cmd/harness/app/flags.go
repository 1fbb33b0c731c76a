package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"
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
	// maxInFlight: serve only, --max-inflight (calls in flight per connection; 0: the default).
	maxInFlight int
	// sessionIdle and maxSessions: run only, --session-idle and --max-sessions.
	sessionIdle time.Duration
	maxSessions int
	workdir     string // absolute: --cwd or the process working directory
}

// commands lists the commands with their one-line help, in usage order.
var commands = []struct{ name, help string }{
	{"serve", "serve the composed tools over MCP on stdio (one connection = one session)"},
	{"run", "execute JSON-line tool calls from stdin, one result line per input line on stdout"},
	{"tools", "print the tool definitions as JSON"},
	{"plugins", "print the plugin catalog"},
	{"config", "print the composed plugin tree"},
}

func usage(w io.Writer, name string) {
	fmt.Fprintf(w, "usage: %s <command> [flags]\n\ncommands:\n", name)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.help)
	}
	fmt.Fprintf(w, "\nflags:\n"+
		"  --config FILE      composition YAML (default: the embedded profile)\n"+
		"  --profile NAME     embedded profile (default %q)\n"+
		"  --cwd DIR          working directory of sessions and of fs-local (default: the current directory)\n"+
		"  --log-level LEVEL  debug, info, warn or error (default info); logs go to stderr\n"+
		"  --approve MODE     run only: answer approval prompts with allow-once or reject\n"+
		"  --structured-content\n"+
		"                     serve, tools: list output schemas and send structuredContent (for programmatic\n"+
		"                     clients; agents such as Claude Code, Codex and opencode then show the model\n"+
		"                     the JSON value instead of the text)\n"+
		"  --max-inflight N   serve only: calls in flight per connection; at the limit no more input is\n"+
		"                     read until one is answered (default 4 per core)\n"+
		"  --session-idle D   run only: end a session after D without calls (default 30m)\n"+
		"  --max-sessions N   run only: sessions kept; a new one ends the least recently used (default 1024)\n", DefaultProfile)
}

// parseFlags parses the flags of command cmd.
func parseFlags(cmd string, args []string, stderr io.Writer) (*flags, error) {
	f := &flags{}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.config, "config", "", "composition YAML file")
	fs.StringVar(&f.cwd, "cwd", "", "working directory")
	fs.StringVar(&f.profile, "profile", "", "embedded profile")
	fs.StringVar(&f.logLevel, "log-level", "info", "debug, info, warn or error")
	switch cmd {
	case "run":
		fs.StringVar(&f.approve, "approve", "", "answer approval prompts: allow-once or reject")
	case "serve", "tools":
		fs.BoolVar(&f.structured, "structured-content", false, "list output schemas and send structuredContent")
	}
	if cmd == "serve" {
		fs.IntVar(&f.maxInFlight, "max-inflight", 0, "calls in flight per connection before input is paused")
	}
	if cmd == "run" {
		fs.DurationVar(&f.sessionIdle, "session-idle", defaultRunLimits.idle, "end a session after this long without calls")
		fs.IntVar(&f.maxSessions, "max-sessions", defaultRunLimits.maxSessions, "sessions kept; a new one ends the least recently used")
	}
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errUsage, cmd, err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: %s: unexpected argument %q", errUsage, cmd, fs.Arg(0))
	}
	if f.config != "" && f.profile != "" {
		return nil, fmt.Errorf("%w: %s: --config and --profile are exclusive", errUsage, cmd)
	}
	if cmd == "run" && (f.sessionIdle <= 0 || f.maxSessions <= 0) {
		return nil, fmt.Errorf("%w: %s: --session-idle and --max-sessions must be positive", errUsage, cmd)
	}
	if f.maxInFlight < 0 {
		return nil, fmt.Errorf("%w: %s: --max-inflight must be positive (got %d)", errUsage, cmd, f.maxInFlight)
	}
	switch f.approve {
	case "", approveAllowOnce, approveReject:
	default:
		return nil, fmt.Errorf("%w: %s: --approve must be allow-once or reject (got %q)", errUsage, cmd, f.approve)
	}
	return f, nil
}
