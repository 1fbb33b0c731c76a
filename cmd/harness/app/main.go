package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
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
	err := dispatch(ctx, o, args)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, syscall.EPIPE): // the reader of stdout went away (SIGPIPE is ignored): end quietly
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(o.stderr, "%s: %v\n\n", o.name, err)
		usage(o.stderr, o.name)
		return 2
	default:
		fmt.Fprintf(o.stderr, "%s: %v\n", o.name, err)
		return 1
	}
}

func dispatch(ctx context.Context, o *options, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: no command", errUsage)
	}
	cmd := args[0]
	if cmd == "help" || cmd == "-h" || cmd == "--help" {
		usage(o.stdout, o.name)
		return nil
	}
	run, ok := commandFuncs[cmd]
	if !ok {
		return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
	}
	f, err := parseFlags(cmd, args[1:], o.stderr)
	if err != nil {
		return err
	}
	if f.workdir, err = resolveWorkdir(o, f.cwd); err != nil {
		return err
	}
	log, err := newLogger(o.stderr, f.logLevel, o.name)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	defer func() { _ = log.Sync() }()
	return run(ctx, &env{o: o, f: f, log: log})
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

var commandFuncs map[string]func(context.Context, *env) error

func init() {
	commandFuncs = map[string]func(context.Context, *env) error{
		"serve":   cmdServe,
		"run":     cmdRun,
		"tools":   cmdTools,
		"plugins": cmdPlugins,
		"config":  cmdConfig,
		"history": cmdHistory,
		"undo":    cmdUndo,
	}
}
