package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Options says how to start a server.
type Options struct {
	// Command and Args run the server; it speaks LSP on its standard input and output.
	Command string
	Args    []string
	// Root is the directory the server works on (its workspace folder and working directory).
	Root string
	// Env is the server's environment (nil: this process's).
	Env []string
	// InitializationOptions is sent with initialize (nil: none).
	InitializationOptions any
	// Stderr is given each line the server writes to its standard error (nil: dropped); a line
	// is cut at 4 KiB.
	Stderr func(line string)
	// Dropped is told about each message the client dropped (over MaxFrame, or not JSON-RPC).
	Dropped func(error)
	// MaxFrame bounds one message from the server (< 1: DefaultMaxFrame).
	MaxFrame int
	// MaxDiagnostics bounds the diagnostics kept of one push (< 1: DefaultMaxDiagnostics), and
	// MaxDocuments the documents whose pushes are kept (< 1: DefaultMaxDocuments); the documents
	// that are not open make room first, and a push that finds no room is dropped.
	MaxDiagnostics, MaxDocuments int
	// Settle is how long a pushed result waits for a later push of the same document before it
	// counts (for servers that publish a document's diagnostics in parts); 0: not at all.
	Settle time.Duration
	// Versioned says the server names the version of every push for a document it has open (gopls
	// does): a push that names none is then taken for what it is, a report on the file as the
	// server read it from disk, and never answers Diagnostics for a version.
	Versioned bool
}

// Client is one running server.
type Client struct {
	opts Options
	cmd  *exec.Cmd
	in   io.WriteCloser
	conn *Conn
	pull bool // the server answers textDocument/diagnostic (its initialize result says so)

	exited  chan struct{} // closed once the process has been reaped
	exitErr error

	mu       sync.Mutex
	versions map[string]int // open documents' versions
	pushed   map[string]push
	changed  chan struct{} // closed (and replaced) at each push
	seq      uint64
	lastPush time.Time
	pullRegs map[string]bool // the ids of its dynamic registrations of textDocument/diagnostic
	closing  bool
	closed   chan struct{}
}

// The default bounds of what a client keeps of pushed diagnostics (Options.MaxDiagnostics,
// Options.MaxDocuments).
const (
	DefaultMaxDiagnostics = 1000
	DefaultMaxDocuments   = 10000
)

// push is the latest publishDiagnostics of one document.
type push struct {
	version int // -1 when the server named none
	seq     uint64
	at      time.Time
	items   []Diagnostic
}

// ErrExited reports a server that has exited.
var ErrExited = errors.New("lsp: the server exited")

// Start runs the server and initializes it; ctx bounds the start. It fails when the command
// cannot run or initialize fails, and the process is gone then.
func Start(ctx context.Context, opts Options) (*Client, error) {
	cmd := exec.Command(opts.Command, opts.Args...)
	cmd.Dir = opts.Root
	cmd.Env = opts.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its children end with it (kill)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &Client{opts: opts, cmd: cmd, in: in, exited: make(chan struct{}), versions: map[string]int{},
		pushed: map[string]push{}, pullRegs: map[string]bool{}, changed: make(chan struct{}), closed: make(chan struct{})}
	stderrDone := make(chan struct{})
	go func() {
		defer close(stderrDone)
		readLines(stderr, opts.Stderr)
	}()
	c.conn = NewConn(out, in, opts.MaxFrame, Handler{Request: c.request, Notify: c.notify, Dropped: opts.Dropped})
	go func() {
		// Wait closes the pipes once the process has exited, which ends both readers.
		c.exitErr = cmd.Wait()
		<-c.conn.Done()
		<-stderrDone
		close(c.exited)
	}()
	if err := c.initialize(ctx); err != nil {
		c.kill()
		return nil, err
	}
	return c, nil
}

// readLines hands each line of r to f until r ends; a line is cut at 4 KiB.
func readLines(r io.Reader, f func(string)) {
	br := bufio.NewReaderSize(r, 4096)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 && f != nil {
			s := string(line)
			if s[len(s)-1] == '\n' {
				s = s[:len(s)-1]
			}
			f(s)
		}
		if err == bufio.ErrBufferFull {
			// the rest of a long line is dropped
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
		}
		if err != nil && err != bufio.ErrBufferFull {
			return
		}
	}
}

func (c *Client) initialize(ctx context.Context) error {
	root := URI(c.opts.Root)
	params := map[string]any{
		"processId":  os.Getpid(),
		"clientInfo": map[string]any{"name": "cordon"},
		"rootUri":    root,
		"rootPath":   c.opts.Root,
		"workspaceFolders": []map[string]any{
			{"uri": root, "name": filepath.Base(c.opts.Root)},
		},
		"capabilities": map[string]any{
			"workspace": map[string]any{
				"configuration":          true,
				"workspaceFolders":       true,
				"didChangeWatchedFiles":  map[string]any{"dynamicRegistration": true},
				"didChangeConfiguration": map[string]any{"dynamicRegistration": true},
			},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"dynamicRegistration": true, "didSave": true},
				"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": false},
				"diagnostic":         map[string]any{"dynamicRegistration": true},
			},
			"window": map[string]any{"workDoneProgress": true},
		},
	}
	if c.opts.InitializationOptions != nil {
		params["initializationOptions"] = c.opts.InitializationOptions
	}
	var res struct {
		Capabilities struct {
			DiagnosticProvider json.RawMessage `json:"diagnosticProvider"`
		} `json:"capabilities"`
	}
	if err := c.conn.Call(ctx, "initialize", params, &res); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	d := res.Capabilities.DiagnosticProvider
	c.pull = len(d) > 0 && string(d) != "null" && string(d) != "false"
	return c.conn.Notify("initialized", map[string]any{})
}

// Pull reports whether the server answers textDocument/diagnostic: it said so in its
// initialize result or has registered it since.
func (c *Client) Pull() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pull || len(c.pullRegs) > 0
}

// registrations follows the server's dynamic registrations of textDocument/diagnostic.
func (c *Client) registrations(params json.RawMessage, register bool) {
	var p struct {
		Registrations   []struct{ ID, Method string } `json:"registrations"`
		Unregistrations []struct{ ID, Method string } `json:"unregisterations"` // sic (the protocol's spelling)
	}
	_ = json.Unmarshal(params, &p)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range append(p.Registrations, p.Unregistrations...) {
		if r.Method == "textDocument/diagnostic" {
			if register {
				c.pullRegs[r.ID] = true
			} else {
				delete(c.pullRegs, r.ID)
			}
		}
	}
	c.signal()
}

// request answers what a server asks of its client: nothing is configured, every registration
// and progress token is accepted, the workspace folder is the root.
func (c *Client) request(method string, params json.RawMessage) (any, *ResponseError) {
	switch method {
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(params, &p)
		return make([]any, len(p.Items)), nil
	case "client/registerCapability", "client/unregisterCapability":
		c.registrations(params, method == "client/registerCapability")
		return nil, nil
	case "window/workDoneProgress/create",
		"window/showMessageRequest", "window/showDocument", "workspace/diagnostic/refresh",
		"workspace/semanticTokens/refresh", "workspace/inlayHint/refresh", "workspace/codeLens/refresh":
		return nil, nil
	case "workspace/workspaceFolders":
		return []map[string]any{{"uri": URI(c.opts.Root), "name": filepath.Base(c.opts.Root)}}, nil
	}
	return nil, &ResponseError{Code: CodeMethodNotFound, Message: "method not found: " + method}
}

func (c *Client) notify(method string, params json.RawMessage) {
	if method != "textDocument/publishDiagnostics" {
		return
	}
	var p struct {
		URI         string       `json:"uri"`
		Version     *int         `json:"version"`
		Diagnostics []Diagnostic `json:"diagnostics"`
	}
	if json.Unmarshal(params, &p) != nil || p.URI == "" {
		return
	}
	v := -1
	if p.Version != nil {
		v = *p.Version
	}
	p.URI = Canonical(p.URI)
	if max := positiveOr(c.opts.MaxDiagnostics, DefaultMaxDiagnostics); len(p.Diagnostics) > max {
		p.Diagnostics = p.Diagnostics[:max]
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	maxDocs := positiveOr(c.opts.MaxDocuments, DefaultMaxDocuments)
	if _, ok := c.pushed[p.URI]; !ok && len(c.pushed) >= maxDocs {
		for uri := range c.pushed { // make room: a document that is not open goes first
			if _, open := c.versions[uri]; !open {
				delete(c.pushed, uri)
				break
			}
		}
		if len(c.pushed) >= maxDocs {
			return
		}
	}
	c.seq++
	c.lastPush = time.Now()
	c.pushed[p.URI] = push{version: v, seq: c.seq, at: c.lastPush, items: p.Diagnostics}
	c.signal()
}

// Open opens a document with its text at version 1 (or reopens it at the next version when it
// is open) and returns the version.
func (c *Client) Open(uri, languageID, text string) (int, error) {
	c.mu.Lock()
	if _, ok := c.versions[uri]; ok {
		c.mu.Unlock()
		return c.Change(uri, text)
	}
	c.versions[uri] = 1
	c.mu.Unlock()
	return 1, c.conn.Notify("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": languageID, "version": 1, "text": text},
	})
}

// IsOpen reports whether uri is open.
func (c *Client) IsOpen(uri string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.versions[uri]
	return ok
}

// Change replaces an open document's text (the whole of it) and returns its new version.
func (c *Client) Change(uri, text string) (int, error) {
	c.mu.Lock()
	v, ok := c.versions[uri]
	if !ok {
		c.mu.Unlock()
		return 0, fmt.Errorf("lsp: %s is not open", uri)
	}
	v++
	c.versions[uri] = v
	c.mu.Unlock()
	return v, c.conn.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": v},
		"contentChanges": []map[string]any{{"text": text}},
	})
}

// CloseDocument closes an open document.
func (c *Client) CloseDocument(uri string) error {
	c.mu.Lock()
	_, ok := c.versions[uri]
	delete(c.versions, uri)
	delete(c.pushed, uri)
	c.mu.Unlock()
	if !ok {
		return nil
	}
	return c.conn.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
}

// Watched tells the server about files that changed on disk.
func (c *Client) Watched(events []FileEvent) error {
	if len(events) == 0 {
		return nil
	}
	return c.conn.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": events})
}

// Seq returns the number of pushes so far; Diagnostics of a version counts pushes after it.
func (c *Client) Seq() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq
}

// Diagnostics returns the diagnostics of uri at version: pulled when the server answers pulls,
// else the first push for that version (or, from a server that names no version, the first
// push after seq). It waits until ctx ends.
func (c *Client) Diagnostics(ctx context.Context, uri string, version int, seq uint64) ([]Diagnostic, error) {
	declined := false
	for {
		if !declined && c.Pull() {
			items, err := c.pullDiagnostics(ctx, uri)
			if err == nil {
				return items, nil
			}
			var rerr *ResponseError
			if !errors.As(err, &rerr) {
				return nil, c.exitedOr(err)
			}
			declined = true // a server that declined the pull still pushes
		}
		c.mu.Lock()
		p, ok := c.pushed[uri]
		changed := c.changed
		c.mu.Unlock()
		if ok && (p.version == version || (!c.opts.Versioned && p.version < 0 && p.seq > seq)) {
			wait := time.Until(p.at.Add(c.opts.Settle))
			if wait <= 0 {
				return p.items, nil
			}
			t := time.NewTimer(wait)
			select {
			case <-changed:
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return p.items, nil
			}
			t.Stop()
			continue
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.conn.Done():
			return nil, c.exitedOr(ErrClosed)
		}
	}
}

func (c *Client) pullDiagnostics(ctx context.Context, uri string) ([]Diagnostic, error) {
	var rep struct {
		Kind  string       `json:"kind"`
		Items []Diagnostic `json:"items"`
	}
	err := c.conn.Call(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}}, &rep)
	return rep.Items, err
}

// signal wakes the waiters of Diagnostics; c.mu is held.
func (c *Client) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Quiet waits until no push has come for d (a server publishes the documents of one check in a
// burst, in no set order), or until ctx ends or the server is gone.
func (c *Client) Quiet(ctx context.Context, d time.Duration) {
	for {
		c.mu.Lock()
		wait, changed := time.Until(c.lastPush.Add(d)), c.changed
		c.mu.Unlock()
		if wait <= 0 {
			return
		}
		t := time.NewTimer(wait)
		select {
		case <-changed:
			t.Stop()
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		case <-c.conn.Done():
			t.Stop()
			return
		}
	}
}

// Pushed returns the latest pushed diagnostics of every document whose push came after seq.
func (c *Client) Pushed(seq uint64) map[string][]Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string][]Diagnostic{}
	for uri, p := range c.pushed {
		if p.seq > seq {
			out[uri] = p.items
		}
	}
	return out
}

// Exited is closed once the server process has ended.
func (c *Client) Exited() <-chan struct{} { return c.exited }

// ExitError returns how the process ended (after Exited is closed).
func (c *Client) ExitError() error {
	<-c.exited
	return c.exitErr
}

func (c *Client) exitedOr(err error) error {
	select {
	case <-c.exited:
		if c.exitErr != nil {
			return fmt.Errorf("%w: %v", ErrExited, c.exitErr)
		}
		return ErrExited
	case <-time.After(100 * time.Millisecond):
		return err
	}
}

// Close shuts the server down (shutdown, then exit), waits for it to end within ctx, and kills it
// when ctx ends first. Every goroutine of the client has ended when Close returns.
func (c *Client) Close(ctx context.Context) error {
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		<-c.closed
		return nil
	}
	c.closing = true
	c.mu.Unlock()
	select {
	case <-c.exited:
	default:
		if err := c.conn.Call(ctx, "shutdown", nil, nil); err == nil {
			_ = c.conn.Notify("exit", nil)
		}
		_ = c.in.Close()
		select {
		case <-c.exited:
		case <-ctx.Done():
		}
	}
	c.kill()
	close(c.closed)
	return nil
}

// kill ends the process and what it started (its process group) and waits until it is reaped.
func (c *Client) kill() {
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	_ = c.in.Close()
	<-c.exited
}

// PID returns the server's process id.
func (c *Client) PID() int { return c.cmd.Process.Pid }

func positiveOr(n, def int) int {
	if n < 1 {
		return def
	}
	return n
}
