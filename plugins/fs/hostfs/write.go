package hostfs

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/cordon-dev/cordon/internal/textedit"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// WriteText implements fs.FileSystem: an atomic create or replace of t with
// content, all under t's per-target lock:
//
//  1. probe the key (following symlinks); an existing non-regular entry is
//     FS_NOT_REGULAR_FILE whatever the intent;
//  2. intent ReplaceIfVersion: absent => FS_STALE_VERSION "file no longer
//     exists", other version => FS_STALE_VERSION "file changed since it was
//     read" (unless the intent carries an fs.Recheck, which then decides on
//     the current text: recheckWrite); CreateIfAbsent over an existing file =>
//     FS_NOT_OBSERVED; nil =>
//     no check;
//  3. when replacing: a file the process could not open for writing, or with
//     no write bit at all, is FS_PERMISSION_DENIED, one with more than one
//     hard link FS_IO_ERROR (checkReplaceable); when content is below
//     diffBasisMaxBytes (UTF-8 bytes), the prior text is the diff basis, read
//     once: the text a recheck read, else read now (formForWrite);
//  4. content is stored in the file's charset (a new file's: the one declared
//     for its path; docs/encodings.md), FS_NOT_TEXT when it cannot be encoded;
//     stored bytes larger than maxFileBytes (with the BOM a write keeps) are
//     FS_TOO_LARGE, before anything is staged; otherwise writeFileAtomic
//     publishes them (CreateIfAbsent with a
//     no-replace hard link). A replaced file keeps its owner and group (where
//     the process may set them), extended attributes, mode bits and, if it
//     started with a UTF-8 BOM, its BOM (unless content brings its own);
//  5. the version is re-probed ("missing:<key>" if the file vanished).
//
// Outcome.Before and Outcome.After are LF-normalized and never show a leading
// BOM. The sandbox policy is ignored: this provider never confines.
func (p *Provider) WriteText(ctx context.Context, t fs.Target, content string, intent *fs.WriteIntent) (fs.WriteOutcome, error) {
	return p.writeText(ctx, t, content, intent, nil)
}

// writeText is WriteText, its directory operations confined beneath b when b
// is not nil (see WriteTextBeneath).
func (p *Provider) writeText(ctx context.Context, t fs.Target, content string, intent *fs.WriteIntent, b *Beneath) (_ fs.WriteOutcome, err error) {
	defer func() { err = codedMutation(fs.VerbWrite, t, err) }()
	if err := checkKey(t); err != nil {
		return fs.WriteOutcome{}, err
	}
	if err := b.check(t); err != nil {
		return fs.WriteOutcome{}, err
	}
	release, err := p.lockTarget(ctx, t.Key, fs.VerbWrite)
	if err != nil {
		return fs.WriteOutcome{}, err
	}
	defer release()

	key := string(t.Key)
	existing, exists, err := probe(key)
	if err != nil {
		return fs.WriteOutcome{}, err
	}
	if exists && existing.Type != fs.TypeFile {
		return fs.WriteOutcome{}, fs.WriteNotRegular(t.DisplayPath, nil)
	}
	if err := checkWriteIntent(intent, existing, exists, t.DisplayPath); err != nil {
		return fs.WriteOutcome{}, err
	}

	var read *rechecked // the file as a recheck read it: not read again for the basis
	if exists && intent != nil && intent.Kind == fs.IntentReplaceIfVersion && existing.Version != intent.Version {
		if read, err = p.recheckWrite(ctx, t, existing, intent.Recheck); err != nil {
			return fs.WriteOutcome{}, err
		}
	}

	var keep *keptMeta
	if exists {
		cr := currentCreds()
		if err := checkReplaceable(cr, key, existing, t.DisplayPath, fs.VerbWrite); err != nil {
			return fs.WriteOutcome{}, err
		}
		if keep, err = metaOf(cr, key, existing); err != nil {
			return fs.WriteOutcome{}, err
		}
	}
	w, err := p.formForWrite(ctx, key, exists, content, t.DisplayPath, read)
	if err != nil {
		return fs.WriteOutcome{}, err
	}
	opts := atomicOptions{
		keep:     keep,
		bom:      w.bom,
		display:  t.DisplayPath,
		log:      p.log,
		beneath:  b,
		registry: p.registry,
		hooks:    p.hooks,
	}
	if intent != nil && intent.Kind == fs.IntentCreateIfAbsent {
		opts.createIfAbsent = true
	}
	var made []string
	if !exists {
		made = missingDirs(filepath.Dir(key))
	}
	pub := p.beforePublish(ctx, t, fs.VerbWrite, existing, exists, nil, w.stored, opts.bom, false, made)
	defer pub.finish(ctx)
	if err := writeFileAtomic(ctx, key, w.stored, opts); err != nil {
		return fs.WriteOutcome{}, err
	}

	out := fs.WriteOutcome{
		Operation: fs.OperationCreate,
		Version:   p.versionAfter(t.Key),
		Before:    w.prior.basis,
		After:     textedit.TrimBOM(textedit.NormalizeLF(content)),
	}
	if exists {
		out.Operation = fs.OperationUpdate
	}
	pub.published(ctx, out.Version)
	return out, nil
}

// codedMutation codes an OS failure of a mutation of t (fs.FromOS); a refusal
// of Beneath (wrapping ErrEscape) is the confining caller's, and stays as Deny
// made it.
func codedMutation(verb string, t fs.Target, err error) error {
	if errors.Is(err, ErrEscape) {
		return err
	}
	return fs.FromOS(verb, t.DisplayPath, err)
}

// checkWriteIntent evaluates the write guard against the probe.
func checkWriteIntent(intent *fs.WriteIntent, existing probeInfo, exists bool, display string) error {
	if intent == nil {
		return nil
	}
	switch intent.Kind {
	case fs.IntentReplaceIfVersion:
		if !exists {
			return fs.WriteNoLongerExists(display)
		}
		if existing.Version != intent.Version && intent.Recheck == nil {
			return fs.WriteChanged(display)
		}
	case fs.IntentCreateIfAbsent:
		if exists {
			return fs.OverwriteNotObserved(display, nil)
		}
	}
	return nil
}

// versionAfter probes the key after a committed mutation; a file that vanished
// (or cannot be probed) reports the "missing:<key>" sentinel, because the
// mutation itself has committed.
func (p *Provider) versionAfter(key fs.TargetKey) fs.Version {
	info, ok, err := probe(string(key))
	if err != nil || !ok {
		return missingVersion(key)
	}
	return info.Version
}

func hasBOM(s string) bool {
	return len(s) >= len(textedit.BOM) && s[:len(textedit.BOM)] == textedit.BOM
}
