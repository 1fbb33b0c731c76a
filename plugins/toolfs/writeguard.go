package toolfs

import (
	"context"
	"crypto/sha256"
	"strconv"
	"sync"

	"github.com/cordon-dev/cordon/internal/elision"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/seen"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// warned remembers, per session, the last write the guard refused, so the identical write sent
// again lands: the model has been told what it drops.
type warned struct {
	mu   sync.Mutex
	last map[any]warning
}

type warning struct {
	key fs.TargetKey
	sum [sha256.Size]byte
}

// take reports whether w is the write last refused in session (and forgets it).
func (ws *warned) take(session any, w warning) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if session == nil || ws.last[session] != w {
		return false
	}
	delete(ws.last, session)
	return true
}

// put records w as the write last refused in session.
func (ws *warned) put(session any, w warning) {
	if session == nil {
		return
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.last == nil {
		ws.last = map[any]warning{}
	}
	ws.last[session] = w
}

// forget drops what session's refusals left.
func (ws *warned) forget(session any) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	delete(ws.last, session)
}

// guardDrop refuses, before anything is staged, a write over an existing file that would drop lines
// the session never saw (it read only part of the file at the version the intent replaces) or whose
// content stands for most of the file with an elision placeholder. The identical write sent again
// right after the refusal lands. It costs a read of the file only when the session saw part of it or
// the content holds a placeholder line.
func (s *suite) guardDrop(ctx context.Context, target fs.Target, content string, intent *fs.WriteIntent, exec *tools.Exec) error {
	partial := intent != nil && intent.Kind == fs.IntentReplaceIfVersion && intent.Seen != nil && !seen.Covers(intent.Seen)
	if !partial && !elision.Candidate(content) {
		return nil
	}
	var unseen func(line int) bool
	if partial {
		unseen = func(line int) bool { return !seen.Saw(intent.Seen, line) }
	}
	// The old text streams through the rules: a file too large to hold is judged all the same.
	old := elision.NewReplacement(target.DisplayPath, content, unseen)
	if !partial && !old.HasPlaceholder() {
		return nil // a word of elision, but no placeholder: nothing to refuse, nothing to read
	}
	info, err := s.fs.Stat(ctx, target)
	if err != nil || info == nil || info.Type != fs.TypeFile {
		return nil // the provider's own checks decide
	}
	if partial && info.Version != intent.Version {
		partial = false // the staleness rule decides a moved file
		if !old.HasPlaceholder() {
			return nil
		}
	}
	if err := s.streamTo(ctx, target, old); err != nil {
		return nil
	}
	refusal := dropRefusal(target.DisplayPath, old, partial, intent)
	if refusal == nil {
		return nil
	}
	w := warning{key: target.Key, sum: sha256.Sum256([]byte(content))}
	session := exec.SessionKey()
	if s.warned.take(session, w) {
		return nil
	}
	s.warned.put(session, w)
	return refusal
}

// dropRefusal is the refusal of a write of content over old, or nil when it drops nothing unseen
// and holds no placeholder standing for most of old.
func dropRefusal(p string, old *elision.Replacement, partial bool, intent *fs.WriteIntent) error {
	total := old.Lines()
	var why string
	gone := 0
	if partial {
		n, solid := old.Dropped()
		if solid > 0 && total == intent.Seen.Lines {
			gone = n
			why = dropUnseenText(seen.ReadLines(intent.Seen), n)
		}
	}
	if why == "" {
		line, at, ok := old.Refuses()
		if !ok {
			return nil
		}
		gone, _ = old.DroppedAll()
		why = dropPlaceholderText(at, line)
	}
	return fs.NewError(fs.CodeWouldDrop, wouldDropHead(p, gone, total)+"\n"+why+"\n"+dropNextText, nil)
}

// The texts of the refusal (docs/tool-fs.md "Writes that would drop lines"), from texts.json.
func wouldDropHead(p string, gone, total int) string {
	return fsText.Template("write.drop.head", "path", "gone", "total").Render(p, strconv.Itoa(gone), strconv.Itoa(total))
}

func dropUnseenText(read string, n int) string {
	return fsText.Template("write.drop.unseen", "read", "n").Render(read, strconv.Itoa(n))
}

func dropPlaceholderText(at int, line string) string {
	return fsText.Template("write.drop.placeholder", "line", "quoted_text").Render(strconv.Itoa(at), strconv.Quote(line))
}

var dropNextText = fsText.Text("write.drop.next")
