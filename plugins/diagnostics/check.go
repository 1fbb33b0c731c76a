package diagnostics

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cordon-dev/cordon/internal/beneath"
	"github.com/cordon-dev/cordon/internal/lsp"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// file is what Cordon keeps of one file a server checks: the diagnostics the model was last told
// about (the base of the next delta) and the reports that came after their call.
type file struct {
	path, uri string
	mu        sync.Mutex // one check at a time
	client    *lsp.Client
	version   fs.Version // the file's version whose text the server has
	base      []item
	known     bool     // base is the diagnostics of version
	late      []string // reports of checks that outlived their call's wait
	used      time.Time
	running   int
}

// item is one diagnostic with the key that survives line shifts.
type item struct {
	key       string
	severity  int
	path      string
	line, col int // 1-based; col counts characters
	message   string
	source    string
}

// post appends the reports of the call's changes, and the late reports of the files it
// touched, to an accepted result, after the tool's own text.
func (p *plugin) post(ctx context.Context, a tools.PostArgs, next func() (tools.PostDecision, error)) (tools.PostDecision, error) {
	p.mu.Lock() // one look-up: a call with no record (a read while no file is tracked) is done
	c := p.calls[a.Exec]
	if c == nil {
		p.mu.Unlock()
		return next()
	}
	delete(p.calls, a.Exec)
	p.mu.Unlock()
	d, err := next()
	if err != nil || (d.Kind != "" && d.Kind != tools.Accept) || d.ReplaceValue {
		return d, err
	}
	c.mu.Lock()
	changes := slices.Clone(c.changes)
	touched := c.touched
	c.mu.Unlock()
	if len(touched) == 0 {
		return d, nil
	}
	p.notifyWatchers(changes)
	blocks := p.runChecks(ctx, changes, c.cwd)
	blocks = append(p.lateReports(touched), blocks...)
	if len(blocks) == 0 {
		return d, nil
	}
	content := d.Content
	if content == nil {
		content = a.Result.Content
	}
	used := len(tools.Result{Content: content}.Text())
	text, ok := fitBudget(blocks, p.budget.Of(a.Exec)-used-1)
	if !ok {
		return d, nil
	}
	d.Kind = tools.Accept
	d.Content = append(slices.Clone(content), tools.Content{Type: tools.ContentText, Text: text})
	return d, nil
}

// notifyWatchers tells each running server whose root holds a changed file about it
// (workspace/didChangeWatchedFiles), whatever its language.
func (p *plugin) notifyWatchers(changes []*change) {
	p.mu.Lock()
	servers := make([]*server, 0, len(p.servers))
	for _, s := range p.servers {
		servers = append(servers, s)
	}
	p.mu.Unlock()
	for _, s := range servers {
		s.mu.Lock()
		c := s.client
		s.mu.Unlock()
		if c == nil {
			continue
		}
		var events []lsp.FileEvent
		for _, ch := range changes {
			if !ch.done || !beneath.Within(s.root, ch.path) {
				continue
			}
			typ := lsp.FileChanged
			switch {
			case ch.removed:
				typ = lsp.FileDeleted
			case !ch.existed:
				typ = lsp.FileCreated
			}
			events = append(events, lsp.FileEvent{URI: lsp.URI(ch.path), Type: typ})
		}
		_ = c.Watched(events)
	}
}

// runChecks checks each changed file of a language with a server, all at once, and waits for
// them up to the configured bound; a check still running then reports later (lateReports).
func (p *plugin) runChecks(ctx context.Context, changes []*change, cwd string) []string {
	type pending struct {
		f       *file
		srvName string
		display string
		mu      sync.Mutex
		out     chan string
		gone    bool // the call stopped waiting: the report goes to the file's late reports
	}
	var runs []*pending
	seen := map[string]bool{}
	for i := len(changes) - 1; i >= 0; i-- { // the last change of a file is its text now
		ch := changes[i]
		if !ch.done || seen[ch.path] {
			continue
		}
		seen[ch.path] = true
		if ch.removed {
			p.forget(ch.path)
			continue
		}
		if ch.spec == nil {
			continue
		}
		ws, err := p.fs.Resolve(ctx, ".", fs.ResolveOptions{Cwd: cwd})
		if err != nil {
			continue
		}
		srv, err := p.serverFor(ch.spec, ch.path, p.fs.ProcessPath(ws))
		if err != nil {
			runs = append(runs, &pending{display: ch.display, out: ready(unavailableLine(ch.spec.name, err))})
			continue
		}
		if srv == nil {
			continue
		}
		f := p.fileFor(ch.path)
		r := &pending{f: f, srvName: srv.name, display: ch.display, out: make(chan string, 1)}
		runs = append(runs, r)
		p.checks.Add(1)
		go func() {
			defer p.checks.Done()
			cctx, cancel := context.WithTimeout(p.ctx, time.Duration(p.cfg.CheckTimeout))
			defer cancel()
			text := p.check(cctx, f, srv, ch)
			r.mu.Lock()
			defer r.mu.Unlock()
			p.doneWith(f)
			if !r.gone {
				r.out <- text
				return
			}
			if text != "" {
				f.mu.Lock()
				f.late = append(f.late, lateHeader(text, ch.display))
				f.mu.Unlock()
			}
		}()
	}
	slices.Reverse(runs)
	timer := time.NewTimer(time.Duration(p.cfg.Wait))
	defer timer.Stop()
	var out []string
	for _, r := range runs {
		select {
		case text := <-r.out:
			if text != "" {
				out = append(out, text)
			}
			continue
		case <-timer.C:
		case <-ctx.Done():
		}
		r.mu.Lock()
		select {
		case text := <-r.out:
			if text != "" {
				out = append(out, text)
			}
		default:
			r.gone = true
			out = append(out, fmt.Sprintf("Diagnostics (%s) of %s: still checking after %s; the next call on this file carries the result.",
				r.srvName, r.display, time.Duration(p.cfg.Wait)))
		}
		r.mu.Unlock()
	}
	return out
}

func ready(s string) chan string {
	ch := make(chan string, 1)
	ch <- s
	return ch
}

// lateReports takes the reports of earlier changes to the files a call touched.
func (p *plugin) lateReports(touched map[string]bool) []string {
	var out []string
	for path := range touched {
		p.mu.Lock()
		f := p.files[path]
		p.mu.Unlock()
		if f == nil {
			continue
		}
		if f.mu.TryLock() { // a check running on the file holds it; its report comes later
			out = append(out, f.late...)
			f.late = nil
			f.mu.Unlock()
		}
	}
	slices.Sort(out)
	return out
}

// fileFor returns the state of path, making room under maxFiles.
func (p *plugin) fileFor(path string) *file {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.files[path]
	if f == nil {
		f = &file{path: path, uri: lsp.URI(path)}
		p.files[path] = f
		for len(p.files) > int(p.cfg.MaxFiles) && p.evictLocked(f) {
		}
	}
	f.used = time.Now()
	f.running++
	return f
}

func (p *plugin) doneWith(f *file) {
	p.mu.Lock()
	f.running--
	p.mu.Unlock()
}

// evictLocked drops the least recently changed file other than keep with no check running, and
// closes it in its server. It reports whether it dropped one.
func (p *plugin) evictLocked(keep *file) bool {
	var victim *file
	for _, f := range p.files {
		if f != keep && f.running == 0 && (victim == nil || f.used.Before(victim.used)) {
			victim = f
		}
	}
	if victim == nil {
		return false
	}
	delete(p.files, victim.path)
	p.checks.Add(1)
	go func() {
		defer p.checks.Done()
		victim.mu.Lock()
		c := victim.client
		victim.client, victim.known = nil, false
		victim.mu.Unlock()
		p.mu.Lock()
		back := p.files[victim.path] != nil // tracked again since: its new state uses the document
		p.mu.Unlock()
		if c != nil && !back {
			_ = c.CloseDocument(victim.uri)
		}
	}()
	return true
}

// forget drops a removed file.
func (p *plugin) forget(path string) {
	p.mu.Lock()
	f := p.files[path]
	if f != nil && f.running == 0 {
		delete(p.files, path)
	}
	p.mu.Unlock()
	if f == nil {
		return
	}
	p.checks.Add(1)
	go func() { // after a check still running on the file, without holding up the call
		defer p.checks.Done()
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.client != nil {
			_ = f.client.CloseDocument(f.uri)
			f.client = nil
		}
		f.known = false
	}()
}

// check brings the server up to the change and returns the report ("" when there is nothing to
// say: no server program for the language).
func (p *plugin) check(ctx context.Context, f *file, srv *server, ch *change) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, err := srv.get(ctx)
	if err != nil {
		if errors.Is(err, errNoProgram) {
			return ""
		}
		return unavailableLine(srv.name, err)
	}
	lang := ch.spec.extensions[extOf(ch.path)]
	if f.client != c || !f.known || f.version != ch.priorVersion || ch.priorVersion == "" {
		// The base: the file as it was before the change, or nothing for a new file.
		f.known = false
		switch {
		case !ch.existed:
			f.base = nil
		case ch.prior != nil:
			seq := c.Seq()
			v, err := c.Open(f.uri, lang, *ch.prior)
			if err != nil {
				return p.lost(srv, c, err)
			}
			ds, err := c.Diagnostics(ctx, f.uri, v, seq)
			if err != nil {
				return p.lost(srv, c, err)
			}
			f.base = p.items(ds, f.path, *ch.prior)
		default:
			return "" // the text before is unknown (too large, or unreadable): no delta to compute
		}
		f.client = c
	}
	seq := c.Seq()
	v, err := c.Open(f.uri, lang, ch.after)
	if err != nil {
		return p.lost(srv, c, err)
	}
	ds, err := c.Diagnostics(ctx, f.uri, v, seq)
	if err != nil {
		return p.lost(srv, c, err)
	}
	after := p.items(ds, f.path, ch.after)
	added, fixed := delta(f.base, after)
	f.base, f.known, f.version = after, true, ch.version
	if p.tracksOthers(c, f) {
		c.Quiet(ctx, burstQuiet) // the other files' pushes of this check may follow the file's own
	}
	added = append(added, p.dependents(c, f, seq)...)
	return report(srv.name, ch.display, added, fixed)
}

// burstQuiet is how long a check waits, after the changed file's own diagnostics, for the
// pushes of the other files it tracks on the same server to stop.
const burstQuiet = 150 * time.Millisecond

// tracksOthers says whether a file other than self is known to c.
func (p *plugin) tracksOthers(c *lsp.Client, self *file) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.files {
		if f == self {
			continue
		}
		if !f.mu.TryLock() {
			return true // in a check of its own: it may be
		}
		ok := f.client == c && f.known
		f.mu.Unlock()
		if ok {
			return true
		}
	}
	return false
}

// dependents returns the new problems the server pushed, during the check, for the other files
// it tracks, and moves their bases on.
func (p *plugin) dependents(c *lsp.Client, self *file, seq uint64) []item {
	var out []item
	for uri, ds := range c.Pushed(seq) {
		path := lsp.Path(uri)
		p.mu.Lock()
		f := p.files[path]
		p.mu.Unlock()
		if f == nil || f == self || !f.mu.TryLock() {
			continue
		}
		if f.client == c && f.known {
			after := p.items(ds, path, p.textOf(path))
			added, _ := delta(f.base, after)
			out = append(out, added...)
			f.base = after
		}
		f.mu.Unlock()
	}
	return out
}

// textOf returns the text of a file the server has open (it is the file on disk: Cordon sends a
// file's text when it publishes it), or "" when it is larger than maxFileBytes or unreadable.
func (p *plugin) textOf(path string) string {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0) // a FIFO swapped in does not block
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > int64(p.cfg.MaxFileBytes) {
		return ""
	}
	b, err := io.ReadAll(io.LimitReader(f, int64(p.cfg.MaxFileBytes)+1)) // nor one grown since
	if err != nil || int64(len(b)) > int64(p.cfg.MaxFileBytes) {
		return ""
	}
	return stripBOM(string(b))
}

// lost returns the line of a check whose server failed it.
func (p *plugin) lost(srv *server, c *lsp.Client, err error) string {
	if errors.Is(err, lsp.ErrExited) || errors.Is(err, lsp.ErrClosed) {
		return unavailableLine(srv.name, srv.crashed(c))
	}
	return unavailableLine(srv.name, err)
}

func unavailableLine(name string, err error) string {
	var u *unavailableError
	why := err.Error()
	if errors.As(err, &u) {
		why = u.text
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		why = "the check did not finish within checkTimeout"
	}
	return fmt.Sprintf("Diagnostics (%s): unavailable: %s. The change is unaffected.", name, why)
}

func extOf(path string) string {
	i := strings.LastIndexByte(path, '.')
	if i < 0 || strings.ContainsRune(path[i:], '/') {
		return ""
	}
	return path[i:]
}

// items keeps the errors and warnings of ds (at most maxDiagnosticsPerFile), each keyed by its
// severity, source, code, message and the text it spans (its symbol), never its position.
func (p *plugin) items(ds []lsp.Diagnostic, path, text string) []item {
	lines := strings.Split(text, "\n")
	var out []item
	for _, d := range ds {
		sev := d.Severity
		if sev == 0 {
			sev = lsp.SeverityError
		}
		if sev > lsp.SeverityWarning {
			continue
		}
		if len(out) >= int(p.cfg.MaxDiagnosticsPerFile) {
			break
		}
		symbol, col := "", d.Range.Start.Character+1
		if l := d.Range.Start.Line; l >= 0 && l < len(lines) {
			line := strings.TrimSuffix(lines[l], "\r")
			start := utf16Offset(line, d.Range.Start.Character)
			col = utf8.RuneCountInString(line[:start]) + 1
			if d.Range.End.Line == l {
				end := max(start, utf16Offset(line, d.Range.End.Character))
				symbol = line[start:min(end, start+80)]
			}
		}
		msg := oneLine(d.Message)
		code := d.CodeString()
		out = append(out, item{
			key:      fmt.Sprintf("%d\x00%s\x00%s\x00%s\x00%s", sev, d.Source, code, msg, symbol),
			severity: sev, path: path, line: d.Range.Start.Line + 1, col: col, message: msg, source: d.Source,
		})
	}
	return out
}

// utf16Offset returns the byte offset in line of a UTF-16 offset (clamped to the line).
func utf16Offset(line string, units int) int {
	n := 0
	for i, r := range line {
		if n >= units {
			return i
		}
		n += len(utf16.Encode([]rune{r}))
	}
	return len(line)
}

// oneLine joins a message's lines with spaces and cuts it at 500 bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 500 {
		cut := 500
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// delta returns the items of after that before lacks (by key, counting repeats) and how many of
// before's after lacks.
func delta(before, after []item) ([]item, int) {
	count := map[string]int{}
	for _, it := range before {
		count[it.key]++
	}
	var added []item
	for _, it := range after {
		if count[it.key] > 0 {
			count[it.key]--
			continue
		}
		added = append(added, it)
	}
	fixed := 0
	for _, n := range count {
		fixed += n
	}
	return added, fixed
}

// report renders the outcome of one check (docs/diagnostics.md "What the model sees").
func report(server, display string, added []item, fixed int) string {
	slices.SortStableFunc(added, func(a, b item) int {
		if a.severity != b.severity {
			return a.severity - b.severity
		}
		if a.path != b.path {
			return strings.Compare(a.path, b.path)
		}
		if a.line != b.line {
			return a.line - b.line
		}
		return a.col - b.col
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Diagnostics (%s) of %s: ", server, display)
	if len(added) == 0 {
		b.WriteString("no new problems from this change.")
	} else {
		errs := 0
		for _, it := range added {
			if it.severity == lsp.SeverityError {
				errs++
			}
		}
		fmt.Fprintf(&b, "%s from this change (%s, %s):", plural(len(added), "new problem"), plural(errs, "error"), plural(len(added)-errs, "warning"))
		for _, it := range added {
			fmt.Fprintf(&b, "\n%s:%d:%d: %s", it.path, it.line, it.col, it.message)
			if it.source != "" {
				fmt.Fprintf(&b, " (%s)", it.source)
			}
		}
	}
	if fixed > 0 {
		fmt.Fprintf(&b, "\nFixed by this change: %s.", plural(fixed, "problem"))
	}
	return b.String()
}

// lateHeader turns a report into the report of an earlier change.
func lateHeader(text, display string) string {
	return strings.Replace(text, "from this change", "from the earlier change to "+display+" (it came late)", 1)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// fitBudget joins the blocks and keeps what fits room bytes: whole lines, then a line saying how
// many were left out. It reports false when not even a first line fits.
func fitBudget(blocks []string, room int) (string, bool) {
	text := strings.Join(blocks, "\n")
	if len(text) <= room {
		return text, true
	}
	lines := strings.Split(text, "\n")
	const note = "(%d more diagnostic lines left out: the result budget)"
	for keep := len(lines) - 1; keep >= 1; keep-- {
		out := strings.Join(lines[:keep], "\n") + "\n" + fmt.Sprintf(note, len(lines)-keep)
		if len(out) <= room {
			return out, true
		}
	}
	return "", false
}
