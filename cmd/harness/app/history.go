package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"text/tabwriter"

	"github.com/cordon-dev/cordon/internal/beneath"
	"github.com/cordon-dev/cordon/internal/termtext"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
)

// historyFlags adds the flags of history and undo.
func historyFlags(cmd string, fs *flag.FlagSet, f *flags) {
	if cmd == "history" {
		fs.BoolVar(&f.json, "json", false, "print the changes as JSON, one array")
		return
	}
	fs.BoolVar(&f.force, "force", false, "restore even over changes made to the file since (a warning goes to stderr)")
	fs.StringVar(&f.session, "session", "", "take back a change of session `ID` (the SESSION column of history)")
	fs.BoolVar(&f.anySession, "any-session", false, "take back the newest change by any session")
}

var errNoHistory = errors.New("the composition has no fs-history plugin, so there is no history")

// withHistory composes the kernel (no server needed: the store is on disk) and runs fn with the
// history service.
func withHistory(ctx context.Context, e *env, fn func(*history.Log) error) error {
	h, err := compose(ctx, e.o, e.f, e.log)
	if err != nil {
		return err
	}
	defer h.close()
	lg, ok := history.Service.Get(h.k.Root())
	if !ok || lg == nil {
		return fmt.Errorf("%s: %w", h.source, errNoHistory)
	}
	return fn(lg)
}

// cmdHistory lists the recorded changes to files under the working directory, newest first
// (docs/history.md "harness history").
func cmdHistory(ctx context.Context, e *env) error {
	return withHistory(ctx, e, func(lg *history.Log) error {
		root := canonicalDir(e.f.workdir)
		recs, err := lg.Store.List(history.Match{}, func(r *history.Record) bool { return beneath.Within(root, r.Path) })
		if err != nil {
			return err
		}
		if e.f.json {
			if recs == nil {
				recs = []history.Record{}
			}
			return writeJSON(e.o.stdout, recs)
		}
		w := tabwriter.NewWriter(e.o.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "TIME\tPATH\tTOOL\tSESSION\tSIZE\tCHANGE\tNOTE")
		for i := range recs {
			r := &recs[i]
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Stamp(), termtext.Escape(r.Display), termtext.Escape(r.By()),
				termtext.Escape(orDash(r.Session)), sizeBefore(r), termtext.Escape(r.ID), note(r))
		}
		return w.Flush()
	})
}

// cmdUndo restores one change (docs/history.md "harness undo").
func cmdUndo(ctx context.Context, e *env) error {
	return withHistory(ctx, e, func(lg *history.Log) error {
		arg := e.f.args[0]
		sel := history.Selector{Session: e.f.session, AnySession: e.f.anySession, Force: e.f.force, Within: canonicalDir(e.f.workdir)}
		if _, ok := history.ParseChangeID(arg); ok {
			sel.ChangeID = arg
		} else {
			t, err := lg.FS.Resolve(ctx, arg, fs.ResolveOptions{Cwd: e.f.workdir})
			if err != nil {
				return err
			}
			sel.Target = t
		}
		if e.f.force {
			fmt.Fprintln(e.o.stderr, "warning: --force restores the file even over changes made since Cordon's change; "+
				"what the file holds now is recorded in the history first (harness history lists it)")
		}
		cctx := history.WithActor(ctx, history.Actor{Tool: "harness undo", Cwd: e.f.workdir})
		u, err := history.Undo(cctx, lg.FS, lg.Store, sel)
		if err != nil {
			return escapedError{err}
		}
		u.Display = termtext.Escape(u.Display)
		_, err = fmt.Fprintln(e.o.stdout, u.Text())
		return err
	})
}

// escapedError is an error of undo as the terminal shows it: the file names it quotes are the
// model's choice, so its text is escaped (internal/termtext); errors.Is and As see the cause.
type escapedError struct{ err error }

func (e escapedError) Error() string { return termtext.Escape(e.err.Error()) }
func (e escapedError) Unwrap() error { return e.err }

func canonicalDir(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return dir
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// sizeBefore is the size the file had before the change ("absent" for a creation).
func sizeBefore(r *history.Record) string {
	if !r.Existed {
		return "absent"
	}
	return fmt.Sprint(r.Size)
}

func note(r *history.Record) string {
	switch {
	case r.Pending:
		return "pending (a change in flight, or of a process that died)"
	case r.Interrupted:
		return "interrupted (its process died mid-change; undo --force restores the content before)"
	case r.Undoes != "":
		return "undo of " + r.Undoes
	case r.UndoneBy != "":
		return "undone by " + r.UndoneBy
	case r.Existed && !r.Kept:
		return "by reference only (not undoable)"
	}
	return ""
}
