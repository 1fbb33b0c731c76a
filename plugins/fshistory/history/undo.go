package history

import (
	"context"
	_ "embed"
	"errors"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cordon-dev/cordon/internal/beneath"
	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// Selector names the change Undo undoes: the last one to Target, or the change ChangeID; either
// made in Session, unless AnySession (a change of another session is never taken back as one's own).
type Selector struct {
	Target     fs.Target
	ChangeID   string
	Session    string
	AnySession bool
	// Force restores even over a later change.
	Force bool
	// Within, when set, is the canonical directory the change's file must lie beneath (the CLI's
	// working directory).
	Within string
	// Root is the canonical directory strictly beneath which the folders an undone creation made
	// may be removed (the tool's workspace); "" means Within, else the change's workspace.
	Root string
}

// Undone is what Undo did.
type Undone struct {
	Change  Record // the change undone
	Display string
	Removed bool // the change created the file, so undoing it removed the file
	// RemovedDirs are the folders that creation made which the undo removed (keys, innermost
	// first), DirsDisplay the same as the model named them.
	RemovedDirs, DirsDisplay []string
}

// Texts are undo's model-facing texts, from texts.json beside this file: the one place they are
// written (docs/texts.md; docs/history.md "Messages" quotes them). The undo tool and `harness undo`
// render from them; the tests and the e2e scripts read the same file.
var Texts = texts.MustParse("plugins/fshistory/history/texts.json", textsJSON)

//go:embed texts.json
var textsJSON []byte

// msg renders key of Texts with name, value pairs.
func msg(key string, pairs ...string) string { return Texts.MustRender(key, pairs...) }

// Text is the success text (docs/history.md "Messages").
func (u Undone) Text() string {
	key := "undo.success"
	if u.Removed {
		key = "undo.success.removed"
	}
	return msg(key, "path", u.Display, "tool", u.Change.By(), "time", u.Change.Stamp())
}

// FoldersText is the line that names the folders the undo removed ("" when none; docs/history.md
// "The undo tool").
func (u Undone) FoldersText() string {
	if len(u.DirsDisplay) == 0 {
		return ""
	}
	quoted := make([]string, len(u.DirsDisplay))
	for i, d := range u.DirsDisplay {
		quoted[i] = `"` + d + `"`
	}
	return msg("undo.folders", "tool", u.Change.By(), "folders", strings.Join(quoted, ", "))
}

// ErrNotRestorable is returned when the filesystem cannot restore files (no fs.Restorer).
var ErrNotRestorable = errors.New("the mounted filesystem cannot restore files")

// Undo restores the file of the selected change to what it was before it, under the provider's
// lock and version check: the file must still be as Cordon's last change to it left it (nothing
// changed since, by anyone), unless sel.Force. The restoration is itself recorded (an undo) and
// marks the change undone, so repeated undos step further back. Nothing changes on a refusal.
// The restoration runs on ctx, so a confining filesystem confines it under the policy ctx carries
// (sandbox.WithPolicy).
func Undo(ctx context.Context, fsys fs.FileSystem, st Store, sel Selector) (Undone, error) {
	rs, ok := fsys.(fs.Restorer)
	if !ok {
		return Undone{}, ErrNotRestorable
	}
	ch, later, err := pick(st, sel)
	if err != nil {
		return Undone{}, err
	}
	display := sel.Target.DisplayPath
	if display == "" {
		display = ch.Display
	}
	t := sel.Target
	if t.Key == "" {
		if t, err = fsys.Resolve(ctx, ch.Path, fs.ResolveOptions{}); err != nil {
			return Undone{}, err
		}
		display = t.DisplayPath
	}
	if sel.Within != "" && !beneath.Within(sel.Within, ch.Path) {
		return Undone{}, fs.NewError(fs.CodeNotFound, msg("undo.error.outside_cwd", "path", display, "cwd", sel.Within), nil)
	}
	if t.Key != fs.TargetKey(ch.Key) {
		// The path leads elsewhere now (a symlink planted since the change): whatever Force says,
		// the file acted on is the one Cordon changed, never where a link leads.
		return Undone{}, fs.NewError(fs.CodeStaleVersion, msg("undo.error.relinked", "path", display, "target", string(t.Key)), nil)
	}
	if !sel.Force && later != nil {
		return Undone{}, changedByCordon(display, ch, *later)
	}
	if ch.Existed && !ch.Kept {
		return Undone{}, fs.NewError(fs.CodeTooLarge, msg("undo.error.digest_only", "path", display, "tool", ch.By(),
			"time", ch.Stamp(), "size", strconv.FormatInt(ch.Size, 10)), nil)
	}
	r := fs.Restoration{Remove: !ch.Existed, Mode: uint32(FileMode(ch.Mode)), Force: sel.Force}
	if ch.Existed {
		if r.Content, err = st.Content(ch); err != nil {
			return Undone{}, fs.NewError(fs.CodeIOError, msg("undo.error.lost", "path", display, "tool", ch.By(), "time", ch.Stamp()), err)
		}
	}
	r.Expect = fs.Version(ch.VersionAfter)
	if latest, err := latestFor(st, ch.Key); err == nil && latest != nil {
		r.Expect = fs.Version(latest.VersionAfter)
	}
	if _, err := rs.Restore(withUndoing(ctx, ch.ID), t, r); err != nil {
		if errors.Is(err, fs.ErrStaleVersion) || fs.HasCode(err, fs.CodeNotRegularFile) {
			return Undone{}, changedOutside(ctx, fsys, t, display, ch, err)
		}
		return Undone{}, err
	}
	u := Undone{Change: ch, Display: display, Removed: !ch.Existed}
	if pr, ok := fsys.(fs.DirPruner); ok && u.Removed {
		if dirs := prunable(ch, sel); len(dirs) > 0 {
			u.RemovedDirs = pr.PruneDirs(ctx, t, dirs)
			u.DirsDisplay = dirsAsNamed(display, t, u.RemovedDirs)
		}
	}
	return u, nil
}

// prunable returns the folders ch's creation made that an undo may remove: those strictly beneath
// the selector's root (Root, else Within, else the change's workspace), innermost first, up to the
// first that is not (none without a root).
func prunable(ch Record, sel Selector) []string {
	root := sel.Root
	if root == "" {
		root = sel.Within
	}
	if root == "" {
		root = ch.Workspace
	}
	if root == "" {
		return nil
	}
	var out []string
	for _, d := range ch.MadeDirs {
		if d == root || !beneath.Within(root, d) {
			break
		}
		out = append(out, d)
	}
	return out
}

// dirsAsNamed returns the folders removed (t's ancestors, innermost first) as the display path
// names them, each the parent of the one before; a folder the display path does not reach is
// shown as its key.
func dirsAsNamed(display string, t fs.Target, removed []string) []string {
	out := make([]string, len(removed))
	named, key := display, string(t.Key)
	for i, d := range removed {
		key = filepath.Dir(key)
		if next := filepath.Dir(named); named != "" && next != named && next != "." && key == d {
			named = next
			out[i] = named
			continue
		}
		named, out[i] = "", d
	}
	return out
}

// pick returns the change to undo and, when a change that is not an undo (and not undone) came
// after it to the same file, the newest such change.
func pick(st Store, sel Selector) (Record, *Record, error) {
	var ch Record
	var key string
	if sel.ChangeID != "" {
		r, err := st.Get(sel.ChangeID)
		if errors.Is(err, ErrNoChange) {
			return Record{}, nil, fs.NewError(fs.CodeNotFound, msg("undo.error.no_such_change", "change", sel.ChangeID), err)
		}
		if err != nil {
			return Record{}, nil, err
		}
		if r.Undoes != "" {
			return Record{}, nil, fs.NewError(fs.CodeNotFound, msg("undo.error.undo_of_undo", "change", r.ID, "undoes", r.Undoes), nil)
		}
		if r.UndoneBy != "" {
			return Record{}, nil, fs.NewError(fs.CodeNotFound, msg("undo.error.undone", "change", r.ID, "by", r.UndoneBy), nil)
		}
		if !sel.AnySession && r.Session != sel.Session {
			return Record{}, nil, fs.NewError(fs.CodeNotFound, msg("undo.error.other_session", "change", r.ID, "session", r.Session), nil)
		}
		ch, key = r, r.Key
	} else {
		key = string(sel.Target.Key)
	}
	recs, err := st.List(Match{Key: key}, nil)
	if err != nil {
		return Record{}, nil, err
	}
	var later *Record
	for i := range recs { // newest first
		r := &recs[i]
		if sel.ChangeID != "" && r.ID == ch.ID {
			return ch, later, nil
		}
		if r.Undoes != "" || r.UndoneBy != "" {
			continue
		}
		if sel.ChangeID == "" && (sel.AnySession || r.Session == sel.Session) {
			return *r, later, nil
		}
		if later == nil {
			later = r
		}
	}
	if sel.ChangeID != "" {
		return ch, later, nil
	}
	none := "undo.error.none"
	if sel.AnySession {
		none = "undo.error.none.any_session"
	}
	return Record{}, nil, fs.NewError(fs.CodeNotFound, msg(none, "path", sel.Target.DisplayPath), nil)
}

// latestFor returns the newest record of a target key.
func latestFor(st Store, key string) (*Record, error) {
	var found *Record
	recs, err := st.List(Match{Key: key}, func(r *Record) bool {
		if found != nil {
			return false
		}
		found = r
		return true
	})
	if err != nil || len(recs) == 0 {
		return nil, err
	}
	return &recs[0], nil
}

func changedByCordon(display string, ch, later Record) *fs.Error {
	who := later.By()
	if later.Session != "" {
		who = msg("undo.later.in_session", "tool", who, "session", later.Session)
	}
	return fs.NewError(fs.CodeStaleVersion, msg("undo.error.later", "path", display, "later", who, "later_time", later.Stamp(),
		"later_change", later.ID, "tool", ch.By(), "time", ch.Stamp(), "change", ch.ID), nil)
}

func changedOutside(ctx context.Context, fsys fs.FileSystem, t fs.Target, display string, ch Record, cause error) *fs.Error {
	what := msg("undo.outside.changed")
	if info, err := fsys.Stat(ctx, t); err == nil && info == nil {
		what = msg("undo.outside.removed")
	} else if err == nil && info.Type != fs.TypeFile {
		what = msg("undo.outside.replaced")
	} else if err == nil && !ch.Existed && ch.VersionAfter == "" {
		what = msg("undo.outside.created")
	}
	return fs.NewError(fs.CodeStaleVersion, msg("undo.error.outside", "path", display, "what", what, "tool", ch.By(),
		"time", ch.Stamp(), "change", ch.ID), cause)
}
