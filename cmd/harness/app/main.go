package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"go.uber.org/zap"
)

// gcPercent is the GC target Main sets when GOGC is unset: a tool call allocates several times the
// small live heap (a 2,000-line read is a few MB of short-lived JSON), so the default 100 collects
// on almost every call.
const gcPercent = 400

// memoryLimit is the soft memory limit Main sets when GOMEMLIMIT is unset: with GOGC=400 a large
// request (a 16 MiB line, an image decode) would otherwise let the heap grow to five times what it
// holds; near the limit the collector runs as often as it must instead. It is not a cap: work that
// needs more memory still gets it.
const memoryLimit = 256 << 20

// Main runs the harness command line (args without the program name) and returns the exit status:
// 0 on success, 1 when the command fails (a bad composition included), 2 on a usage error. SIGINT and
// SIGTERM end serve and run cleanly, and so does a closed stdout (SIGPIPE is ignored). Main owns the
// process: it also sets the GC target (GOGC=400 unless GOGC is set) and a soft memory limit
// (256 MiB unless GOMEMLIMIT is set). Embedders that share their process use MainContext.
func Main(args []string, opts ...Option) int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	// A reader of stdout that goes away must end serve and run through their shutdown (sessions
	// ended, plugins disposed, async listeners drained), not kill the process: with SIGPIPE ignored a
	// write to the closed pipe fails with EPIPE instead.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return MainContext(ctx, args, opts...)
}

// MainContext is Main under a caller-supplied context; cancelling it ends serve and run.
func MainContext(ctx context.Context, args []string, opts ...Option) int {
	o := defaultOptions()
	for _, opt := range opts {
		opt(o)
	}
	cmd, err := dispatch(ctx, o, args)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, syscall.EPIPE): // the reader of stdout went away (SIGPIPE is ignored): end quietly
		return 0
	case errors.Is(err, errUsage):
		// One line for the mistake, one for where the help is (docs/host.md "Usage errors").
		hint := o.name + " help"
		if cmd != "" {
			hint += " " + cmd
		}
		fmt.Fprintf(o.stderr, "%s: %v\nrun '%s' for usage\n", o.name, err, hint)
		return 2
	default:
		fmt.Fprintf(o.stderr, "%s: %v\n", o.name, err)
		return 1
	}
}

// dispatch runs the command args name and returns the command it ran ("" when none was found) and
// its error.
func dispatch(ctx context.Context, o *options, args []string) (string, error) {
	if len(args) == 0 {
		return "", fmt.Errorf("%w: no command", errUsage)
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) == 1 || (name == "help" && len(args) == 2 && isHelpFlag(args[1])) {
			usage(o.stdout, o.name)
			return "", nil
		}
		c, ok := lookupCommand(args[1])
		if !ok {
			return "", fmt.Errorf("%w: help: unknown command %q", errUsage, args[1])
		}
		if len(args) > 2 {
			return "help", fmt.Errorf("%w: help: unexpected argument %q", errUsage, args[2])
		}
		commandHelp(o.stdout, o.name, c)
		return "", nil
	case "-version", "--version":
		name = "version"
	}
	c, ok := lookupCommand(name)
	if !ok {
		if strings.HasPrefix(name, "-") {
			return "", fmt.Errorf("%w: unknown flag %s: flags follow the command (%s serve %s)", errUsage, name, o.name, name)
		}
		return "", fmt.Errorf("%w: unknown command %q", errUsage, name)
	}
	err := runCommand(ctx, o, c, args[1:])
	if errors.Is(err, errHelp) {
		commandHelp(o.stdout, o.name, c)
		return c.name, nil
	}
	return c.name, err
}

// runCommand parses the flags of c and runs it.
func runCommand(ctx context.Context, o *options, c *command, args []string) error {
	switch c.name {
	case "setup":
		return runSetup(o, args)
	case "version":
		if len(args) > 0 {
			if isHelpFlag(args[0]) {
				return errHelp
			}
			return fmt.Errorf("%w: version: unexpected argument %q", errUsage, args[0])
		}
		return c.run(ctx, &env{o: o})
	}
	f, err := parseFlags(c.name, args)
	if err != nil {
		return err
	}
	if f.workdir, err = resolveWorkdir(o, f.cwd); err != nil {
		return err
	}
	log, err := newLogger(o.stderr, f.logLevel, o.name)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", errUsage, c.name, err)
	}
	defer func() { _ = log.Sync() }()
	return c.run(ctx, &env{o: o, f: f, log: log})
}

// env is what a command runs with.
type env struct {
	o   *options
	f   *flags
	log *zap.Logger
}

// cwdHeader is the session header cwd: --cwd when given, otherwise none (the provider default).
func (e *env) cwdHeader() *string {
	if e.f.cwd == "" {
		return nil
	}
	return &e.f.workdir
}

// isHelpFlag reports whether arg asks for help.
func isHelpFlag(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }
