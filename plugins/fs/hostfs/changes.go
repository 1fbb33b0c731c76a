package hostfs

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/internal/textedit"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/staging"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/txn"
)

// Confine maps a change's target to the target a confining provider writes and the confinement
// of its directory operations (nil: none); an error refuses the whole set.
type Confine func(ctx context.Context, t fs.Target) (fs.Target, *Beneath, error)

var _ fs.ChangeSetApplier = (*Provider)(nil)

// ApplyChanges implements fs.ChangeSetApplier: every target is locked (per-target locks in key
// order, then the directory locks in path order, so two sets never deadlock), checked as
// WriteText, EditText and a delete check theirs, and every new content staged and fsynced beside
// its target, before the journal records that publication starts; then the staged files are
// renamed into place and the deleted ones removed (docs/apply_patch.md "All or nothing"). A
// failure before that point changes nothing. The sandbox policy is ignored.
func (p *Provider) ApplyChanges(ctx context.Context, changes []fs.Change) ([]fs.ChangeOutcome, error) {
	return p.ApplyChangesConfined(ctx, changes, nil)
}

// ApplyChangesConfined is ApplyChanges with each target passed through confine first (nil:
// unconfined): the extension point of fs-sandbox.
func (p *Provider) ApplyChangesConfined(ctx context.Context, changes []fs.Change, confine Confine) ([]fs.ChangeOutcome, error) {
	set, err := p.prepareSet(ctx, changes, confine)
	if err != nil {
		return nil, err
	}
	release, err := p.lockSet(ctx, set.keys())
	if err != nil {
		return nil, err
	}
	defer release()
	var held int64 // the bytes of file text the set holds once checked (planned.held)
	for _, c := range set {
		if err := p.check(ctx, c); err != nil {
			return nil, err
		}
		if held += c.held(); held > p.maxSetBytes() {
			return nil, fs.PatchTooLarge(c.display(), held, p.maxSetBytes())
		}
	}
	if err := p.publishSet(ctx, set); err != nil {
		return nil, err
	}
	out := make([]fs.ChangeOutcome, len(set))
	for i, c := range set {
		out[i] = c.outcome(p)
	}
	return out, nil
}

// setFiles is how many files of maxFileBytes one change set may hold in memory at most
// (maxSetBytes): each file is bounded, and without this a set naming many large files is not.
const setFiles = 16

// maxSetBytes bounds the bytes of files one change set holds once checked (docs/apply_patch.md
// "Limits"): setFiles times the provider's maxFileBytes.
func (p *Provider) maxSetBytes() int64 {
	if p.maxFileBytes > math.MaxInt64/setFiles {
		return math.MaxInt64
	}
	return setFiles * p.maxFileBytes
}

// held is the bytes of file text c holds once checked: the old bytes an update read and the new
// ones it makes, or the old text a delete or an overwrite keeps for its diff (an update's diff
// texts are those bytes, decoded).
func (c *planned) held() int64 {
	n := int64(len(c.raw) + len(c.body))
	if c.raw == nil && c.before != nil {
		n += int64(len(*c.before))
	}
	return n
}

// display is the path a failure of c names: its source, else its destination.
func (c *planned) display() string {
	if c.src.Key != "" {
		return c.src.DisplayPath
	}
	return c.dst.DisplayPath
}

// planned is one change once resolved and checked.
type planned struct {
	ch       fs.Change
	src, dst fs.Target // src: the file read or removed; dst: the file written (Key "" = none)
	srcB     *Beneath
	dstB     *Beneath
	body     string // what dst receives (after the BOM)
	bom      bool
	keep     *keptMeta
	op       fs.Operation
	before   *string
	after    *string
	srcID    *txn.FileID // identity of src (delete, move) when checked
	dstID    *txn.FileID // identity of dst when checked (nil: absent)
	dir      atomicDir   // dst's directory, once staged
	stageDir string
	temp     string
	madeFrom string // the existing ancestor below which staging created dst's parents ("" = none)
	// For the publish hook: the probes of src and dst (dstExists: dst existed), src's raw bytes
	// when read (update), and the publications under way.
	srcInfo, dstInfo probeInfo
	dstExists        bool
	raw              []byte
	pubSrc, pubDst   *publication
}

type changeSet []*planned

// keys returns every key the set touches.
func (s changeSet) keys() []fs.TargetKey {
	var keys []fs.TargetKey
	for _, c := range s {
		for _, t := range []fs.Target{c.src, c.dst} {
			if t.Key != "" {
				keys = append(keys, t.Key)
			}
		}
	}
	return keys
}

// prepareSet confines and validates every target, before any lock or I/O on them.
func (p *Provider) prepareSet(ctx context.Context, changes []fs.Change, confine Confine) (changeSet, error) {
	seen := map[fs.TargetKey]bool{}
	set := make(changeSet, 0, len(changes))
	place := func(t fs.Target) (fs.Target, *Beneath, error) {
		var b *Beneath
		if confine != nil {
			var err error
			if t, b, err = confine(ctx, t); err != nil {
				return fs.Target{}, nil, err
			}
		}
		if err := checkKey(t); err != nil {
			return fs.Target{}, nil, err
		}
		if err := b.check(t); err != nil {
			return fs.Target{}, nil, err
		}
		if seen[t.Key] {
			return fs.Target{}, nil, fs.PatchTwice(t.DisplayPath)
		}
		seen[t.Key] = true
		return t, b, nil
	}
	for _, ch := range changes {
		c := &planned{ch: ch}
		t, b, err := place(ch.Target)
		if err != nil {
			return nil, err
		}
		switch ch.Kind {
		case fs.ChangeWrite:
			c.dst, c.dstB = t, b
		case fs.ChangeDelete:
			if c.src, err = entryOf(t); err != nil {
				return nil, err
			}
			c.srcB = b
		case fs.ChangeUpdate:
			c.src, c.srcB, c.dst, c.dstB = t, b, t, b
			if ch.MoveTo != nil && ch.MoveTo.Key != t.Key {
				if c.dst, c.dstB, err = place(*ch.MoveTo); err != nil {
					return nil, err
				}
				if c.src, err = entryOf(t); err != nil {
					return nil, err
				}
			}
		default:
			return nil, errors.New("fs-local: unknown change kind " + string(ch.Kind))
		}
		set = append(set, c)
	}
	return set, nil
}

// entryOf is the directory entry a delete, or a move's source, removes (docs/apply_patch.md
// "Symlinks"): t itself, or, when t's display path ends in a symlink, the link, keyed by its
// directory's realpath and its own name, so that the link goes and the file it points to is never
// touched. Its content is still read through the link (stat follows it), which the guard checks.
func entryOf(t fs.Target) (fs.Target, error) {
	info, exists, err := probeNoFollow(t.DisplayPath)
	if err != nil || !exists || info.Type != fs.TypeSymlink {
		return t, err
	}
	dir, _, err := realpath(filepath.Dir(t.DisplayPath))
	if err != nil {
		return fs.Target{}, err
	}
	return fs.Target{Key: fs.TargetKey(filepath.Join(dir, filepath.Base(t.DisplayPath))), DisplayPath: t.DisplayPath}, nil
}

// lockSet takes the per-target locks of keys in key order, then the in-process and advisory
// locks of their directories in path order (see lockTarget).
func (p *Provider) lockSet(ctx context.Context, keys []fs.TargetKey) (release func(), err error) {
	var held []func()
	release = func() {
		for _, r := range slices.Backward(held) {
			r()
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var dirs []string
	for _, k := range keys {
		r, err := p.locks.acquire(ctx, k, fs.VerbPatch)
		if err != nil {
			release()
			return nil, err
		}
		held = append(held, r)
		dirs = append(dirs, existingDir(filepath.Dir(string(k))))
	}
	slices.Sort(dirs)
	for _, d := range slices.Compact(dirs) {
		r, err := p.dirLocks.acquire(ctx, fs.TargetKey(d), fs.VerbPatch)
		if err != nil {
			release()
			return nil, err
		}
		held = append(held, r)
		unlock, err := flockDir(ctx, d, fs.VerbPatch)
		if err != nil {
			release()
			return nil, err
		}
		held = append(held, unlock)
	}
	return release, nil
}

// check runs the checks of one change under the set's locks and computes what it writes.
func (p *Provider) check(ctx context.Context, c *planned) (err error) {
	switch c.ch.Kind {
	case fs.ChangeWrite:
		defer func() { err = codedMutation(fs.VerbWrite, c.dst, err) }()
		return p.checkWrite(ctx, c)
	case fs.ChangeDelete:
		defer func() { err = codedMutation(fs.VerbPatch, c.src, err) }()
		return p.checkDelete(ctx, c)
	}
	defer func() { err = codedMutation(fs.VerbEdit, c.src, err) }()
	return p.checkUpdate(ctx, c)
}

func (p *Provider) checkWrite(ctx context.Context, c *planned) error {
	key := string(c.dst.Key)
	existing, exists, err := probe(key)
	if err != nil {
		return err
	}
	if exists && existing.Type != fs.TypeFile {
		return fs.WriteNotRegular(c.dst.DisplayPath, nil)
	}
	read, err := p.checkWriteGuard(ctx, c.dst, c.ch.Intent, existing, exists)
	if err != nil {
		return err
	}
	c.dstInfo, c.dstExists, c.op = existing, exists, fs.OperationCreate
	if exists {
		c.op = fs.OperationUpdate
		cr := currentCreds()
		if err := checkReplaceable(cr, key, existing, c.dst.DisplayPath, fs.VerbWrite); err != nil {
			return err
		}
		if c.keep, err = metaOf(cr, key, existing); err != nil {
			return err
		}
	}
	w, err := p.formForWrite(ctx, key, exists, c.ch.Content, c.dst.DisplayPath, read)
	if err != nil {
		return err
	}
	c.body, c.bom, c.before = w.stored, w.bom, w.prior.basis
	after := textedit.TrimBOM(textedit.NormalizeLF(c.ch.Content))
	c.after = &after
	c.dstID, err = txn.IDOf(key)
	return err
}

// checkWriteGuard is WriteText's check of intent over t (probed as existing, exists): a version
// moved under an intent with a Recheck is decided by it, on the current text (recheckWrite,
// whose read it returns).
func (p *Provider) checkWriteGuard(ctx context.Context, t fs.Target, intent *fs.WriteIntent, existing probeInfo, exists bool) (*rechecked, error) {
	if err := checkWriteIntent(intent, existing, exists, t.DisplayPath); err != nil {
		return nil, err
	}
	if exists && intent != nil && intent.Kind == fs.IntentReplaceIfVersion && existing.Version != intent.Version {
		return p.recheckWrite(ctx, t, existing, intent.Recheck)
	}
	return nil, nil
}

// sourceRefusals are the failures of probing the existing file a delete or an update needs.
type sourceRefusals struct {
	changed, notFound, notRegular func(display string) *fs.Error
}

var (
	deleteRefusals = sourceRefusals{fs.DeleteChanged, fs.DeleteNotFound, fs.DeleteNotRegular}
	updateRefusals = sourceRefusals{fs.EditChanged, fs.UpdateNotFound, fs.EditNotRegular}
)

// moved reports whether c's guard names another version than existing's: its Recheck decides.
func (c *planned) moved(existing probeInfo) bool {
	return c.ch.Guard != nil && c.ch.Guard.Version != existing.Version
}

// probeSource probes c's source, which must be a regular file at the guard's version (or one its
// Recheck is to decide on): missing is "changed" under a guard (the caller saw it) and "not found"
// without one.
func probeSource(c *planned, r sourceRefusals) (probeInfo, error) {
	display := c.src.DisplayPath
	existing, exists, err := probe(string(c.src.Key))
	switch {
	case err != nil:
		return probeInfo{}, err
	case !exists && c.ch.Guard != nil:
		return probeInfo{}, r.changed(display)
	case !exists:
		return probeInfo{}, r.notFound(display)
	case existing.Type != fs.TypeFile:
		return probeInfo{}, r.notRegular(display)
	case c.ch.Guard != nil && c.ch.Guard.Version != existing.Version && c.ch.Guard.Recheck == nil:
		return probeInfo{}, r.changed(display)
	}
	return existing, nil
}

func (p *Provider) checkDelete(ctx context.Context, c *planned) error {
	key := string(c.src.Key)
	existing, err := probeSource(c, deleteRefusals)
	if err != nil {
		return err
	}
	var read *rechecked
	if c.moved(existing) {
		if read, err = p.recheckWrite(ctx, c.src, existing, c.ch.Guard.Recheck); err != nil {
			return restale(err, fs.DeleteChanged(c.src.DisplayPath))
		}
	}
	c.srcInfo, c.op = existing, fs.OperationDelete
	if existing.Size < p.diffBasisMaxBytes { // the text it removes, decoded in its charset
		if _, prior, err := p.priorText(ctx, key, true, c.src.DisplayPath, read); err == nil {
			c.before = prior.basis
		}
	}
	c.srcID, err = txn.IDOf(key)
	return err
}

func (p *Provider) checkUpdate(ctx context.Context, c *planned) error {
	key, display := string(c.src.Key), c.src.DisplayPath
	existing, err := probeSource(c, updateRefusals)
	if err != nil {
		return err
	}
	cr := currentCreds()
	if err := checkReplaceable(cr, key, existing, display, fs.VerbEdit); err != nil {
		return err
	}
	if existing.Size > p.maxFileBytes {
		return fs.EditTooLarge(display, existing.Size, p.maxFileBytes)
	}
	raw, err := readForEdit(ctx, c.src, p.maxFileBytes)
	if err != nil {
		return err
	}
	ft, doc, err := p.docForEdit(ctx, key, raw, display)
	if err != nil {
		return err
	}
	if c.moved(existing) { // an edit of the whole text: the lines it touches are not known
		if _, err := c.ch.Guard.Recheck.Edit(existing.Version, doc.Raw, nil); err != nil {
			return err
		}
	}
	c.srcInfo, c.raw = existing, raw
	text, err := c.ch.Update(doc.Raw)
	if err != nil {
		return err
	}
	if c.body, c.bom, err = p.storeUpdate(ctx, c, ft, doc.BOM, text); err != nil {
		return err
	}
	if size := int64(len(c.body)) + bomBytes(c.bom); size > p.maxFileBytes {
		return fs.EditResultTooLarge(display, size, p.maxFileBytes)
	}
	if c.keep, err = metaOf(cr, key, existing); err != nil {
		return err
	}
	before, after := doc.Content, textedit.NormalizeLF(text)
	c.before, c.after, c.op = &before, &after, fs.OperationUpdate
	if c.dst.Key == c.src.Key {
		c.dstInfo, c.dstExists = existing, true
		c.dstID, err = txn.IDOf(key)
		return err
	}
	if c.srcID, err = txn.IDOf(key); err != nil {
		return err
	}
	dkey := string(c.dst.Key)
	dest, dexists, err := probe(dkey)
	if err != nil {
		return err
	}
	if dexists && dest.Type != fs.TypeFile {
		return fs.WriteNotRegular(c.dst.DisplayPath, nil)
	}
	if _, err := p.checkWriteGuard(ctx, c.dst, c.ch.MoveIntent, dest, dexists); err != nil {
		return err
	}
	c.dstInfo, c.dstExists = dest, dexists
	if dexists {
		if err := checkReplaceable(currentCreds(), dkey, dest, c.dst.DisplayPath, fs.VerbWrite); err != nil {
			return err
		}
	}
	c.dstID, err = txn.IDOf(dkey)
	return err
}

// outcome is the result of a published change.
func (c *planned) outcome(p *Provider) fs.ChangeOutcome {
	o := fs.ChangeOutcome{Operation: c.op, Before: c.before, After: c.after}
	if c.dst.Key == "" {
		o.Target = c.src
		return o
	}
	o.Target, o.Version = c.dst, p.versionAfter(c.dst.Key)
	if o.Before != nil && int64(len(*o.Before)) >= p.diffBasisMaxBytes || o.After != nil && int64(len(*o.After)) >= p.diffBasisMaxBytes {
		o.Before, o.After = nil, nil
	}
	return o
}

// plan returns the journal's operations: every put (in set order), then every delete (a moved
// file's source included).
func (s changeSet) plan() []txn.Op {
	var puts, dels []txn.Op
	for _, c := range s {
		if c.dst.Key != "" {
			puts = append(puts, txn.Op{Kind: txn.OpPut, Target: string(c.dst.Key), Staged: c.temp, Dir: c.stageDir, Pre: c.dstID, MadeFrom: c.madeFrom})
		}
		if c.src.Key != "" && c.src.Key != c.dst.Key {
			dels = append(dels, txn.Op{Kind: txn.OpDelete, Target: string(c.src.Key), Pre: c.srcID})
		}
	}
	return append(puts, dels...)
}

// publishSet stages every new content, journals the plan and publishes it.
func (p *Provider) publishSet(ctx context.Context, set changeSet) (err error) {
	for _, c := range set {
		if c.dst.Key != "" {
			base := filepath.Base(string(c.dst.Key))
			c.stageDir = filepath.Join(filepath.Dir(string(c.dst.Key)), p.hooks.name(base))
			c.temp = filepath.Join(c.stageDir, staging.Base(base)+".tmp")
			if parent := filepath.Dir(string(c.dst.Key)); !isDir(parent) {
				c.madeFrom = existingDir(parent) // journaled: a roll back removes what the set made
			}
		}
	}
	plan := set.plan()
	j, jerr := p.txnDir.Begin(plan)
	if jerr != nil {
		// As for the staging registry: the set still publishes all or nothing in this process,
		// but a crash while it publishes is not repaired at the next start.
		p.log.Warn("no change-set journal: a set interrupted by a crash will not be finished", zap.String("dir", p.txnDir.Path()), zap.Error(jerr))
	}
	published := false
	defer func() {
		for _, c := range set {
			if c.dir == nil {
				continue
			}
			if !published || err == nil {
				_ = c.dir.removeStaging()
			}
			c.dir.sync()
			c.dir.close()
		}
		if !published {
			for _, c := range set {
				removeMadeDirs(filepath.Dir(string(c.dst.Key)), c.madeFrom)
			}
		}
		if !published || err == nil {
			j.Done()
		} else {
			j.Release()
		}
	}()
	for _, c := range set {
		if c.dst.Key == "" {
			continue
		}
		if err := p.stage(ctx, c); err != nil {
			return codedMutation(fs.VerbWrite, c.dst, err)
		}
	}
	if err := checkAbort(ctx, fs.VerbPatch); err != nil {
		return err
	}
	for _, c := range set {
		if c.dir != nil {
			if err := c.dir.beforePublish(filepath.Base(string(c.dst.Key)), string(c.dst.Key)); err != nil {
				return codedMutation(fs.VerbWrite, c.dst, err)
			}
		}
	}
	for _, c := range set {
		c.report(ctx, p)
	}
	defer func() {
		for _, c := range set {
			c.pubSrc.finish(ctx)
			c.pubDst.finish(ctx)
		}
	}()
	if err := j.Publishing(); err != nil {
		return fs.NewError(fs.CodeIOError, "cannot patch: the change-set journal could not be written ("+err.Error()+")", err)
	}
	published = true
	// From here on the set is committed: a failure leaves the journal for the next start.
	var first error
	step := 0
	for _, op := range plan {
		var perr error
		if op.Kind == txn.OpPut {
			c := set.byTemp(op.Staged)
			// A creation never replaces: a file that appeared since the check (another
			// process's write) is kept, and this one fails (the journal's redo leaves it too).
			base, create := filepath.Base(op.Target), !c.dstExists
			if perr = c.dir.publish(base, op.Target, create); perr == nil {
				if create {
					// The staged name is a second link to the file: removing it now changes the
					// file's ctime, so the version reported is the one the file keeps.
					_ = c.dir.removeStaging()
				}
				c.pubDst.published(ctx, p.versionAfter(c.dst.Key))
			} else if create {
				perr = guardedCreateFailure(perr, c.dst.DisplayPath, func() (os.FileMode, error) { return c.dir.inspect(base, op.Target) })
			}
		} else {
			if perr = os.Remove(op.Target); perr == nil {
				set.bySource(op.Target).pubSrc.published(ctx, "")
			}
			syncDir(filepath.Dir(op.Target))
		}
		var fe *fs.Error
		switch {
		case perr == nil || first != nil:
		case errors.As(perr, &fe):
			first = perr
		default:
			first = fs.WriteIOError(op.Target, perr)
		}
		step++
		if p.hooks != nil && p.hooks.published != nil {
			p.hooks.published(step)
		}
	}
	return first
}

// report sends the publish hook's PublishBefore for every file c changes (docs/history.md): the
// file an update rewrites or moves to and the source it removes (verb edit), the file an add
// writes and the one a delete removes (verb write).
func (c *planned) report(ctx context.Context, p *Provider) {
	verb, raw := fs.VerbWrite, []byte(nil)
	if c.ch.Kind == fs.ChangeUpdate {
		verb = fs.VerbEdit
	}
	if c.dst.Key != "" {
		if c.dst.Key == c.src.Key {
			raw = c.raw
		}
		var made []string
		if !c.dstExists {
			made = dirsBelow(filepath.Dir(string(c.dst.Key)), c.madeFrom)
		}
		c.pubDst = p.beforePublish(ctx, c.dst, verb, c.dstInfo, c.dstExists, raw, c.body, c.bom, false, made)
	}
	if c.src.Key != "" && c.src.Key != c.dst.Key {
		c.pubSrc = p.beforePublish(ctx, c.src, verb, c.srcInfo, true, c.raw, "", false, true, nil)
	}
}

// bySource returns the change that removes key.
func (s changeSet) bySource(key string) *planned {
	for _, c := range s {
		if string(c.src.Key) == key && c.src.Key != c.dst.Key {
			return c
		}
	}
	return nil
}

func (s changeSet) byTemp(temp string) *planned {
	for _, c := range s {
		if c.temp == temp {
			return c
		}
	}
	return nil
}

// stage writes c's new content into a private staging directory beside its destination, fsynced
// and with the replaced file's metadata (as writeFileAtomic stages).
func (p *Provider) stage(ctx context.Context, c *planned) error {
	key := string(c.dst.Key)
	d, err := openAtomicDir(filepath.Dir(key), atomicOptions{beneath: c.dstB, hooks: p.hooks})
	if err != nil {
		return err
	}
	if err := d.makeStaging(filepath.Base(c.stageDir), c.stageDir); err != nil {
		d.close()
		return err
	}
	c.dir = d
	f, err := d.createTemp(filepath.Base(c.temp), c.temp)
	if err != nil {
		return err
	}
	err = writeContent(ctx, f, c.body, c.bom)
	if err == nil {
		err = f.Sync()
	}
	if err == nil && p.hooks != nil && p.hooks.inspectTemp != nil {
		p.hooks.inspectTemp(c.stageDir, c.temp)
	}
	if err == nil && c.keep != nil {
		err = c.keep.apply(f, c.dst.DisplayPath, p.hooks)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// dirsBelow returns dir and its parents up to (not including) from, innermost first: the
// directories a set made for a new file in dir when from is the existing ancestor it made them
// below (none when from is "").
func dirsBelow(dir, from string) []string {
	var out []string
	if from == "" {
		return nil
	}
	for d := dir; d != from && len(d) > len(from); d = filepath.Dir(d) {
		out = append(out, d)
	}
	return out
}

// missingDirs returns dir and its parents that do not exist, innermost first: the directories a
// write of a new file in dir is about to create.
func missingDirs(dir string) []string {
	if isDir(dir) {
		return nil
	}
	return dirsBelow(dir, existingDir(dir))
}

// removeMadeDirs removes dir and its parents up to (not including) from while they are empty: the
// directories a set that did not publish created for its new files. from "" removes nothing.
func removeMadeDirs(dir, from string) {
	for _, d := range dirsBelow(dir, from) {
		if os.Remove(d) != nil {
			return
		}
	}
}
