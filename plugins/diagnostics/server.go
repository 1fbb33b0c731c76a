package diagnostics

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/internal/lsp"
)

// server is the server of one language and root: started on the first change that needs it,
// kept warm, started again after a crash once its back-off has passed.
type server struct {
	p    *plugin
	spec *spec
	root string
	name string // the program that runs ("gopls"), or the first one tried when none is found

	mu       sync.Mutex
	client   *lsp.Client
	starting chan struct{} // closed when a start in progress ends
	failures int           // starts failed or crashes in a row
	retry    time.Time     // no start before
	why      string        // the last failure, said on each change until a start succeeds
	counted  bool          // the root's files were counted
	tooLarge string        // why the root is too large to start a server for ("": it is not)
	closed   bool
}

// errNoProgram reports a language none of whose commands is installed: nothing to say.
var errNoProgram = errors.New("no server program found")

// unavailableError is a server that cannot serve now: its text is what the model is told.
type unavailableError struct{ text string }

func (e *unavailableError) Error() string { return e.text }

// serverFor returns the server of a file under workspace, or nil when its language has none or
// it is under no root marker inside the workspace. It fails when starting one more server would
// pass maxServers.
func (p *plugin) serverFor(sp *spec, path, workspace string) (*server, error) {
	root := findRoot(filepath.Dir(path), workspace, sp.rootMarkers)
	if root == "" {
		return nil, nil
	}
	key := sp.name + "\x00" + root
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, nil
	}
	if s := p.servers[key]; s != nil {
		return s, nil
	}
	if len(p.servers) >= int(p.cfg.MaxServers) {
		return nil, &unavailableError{fmt.Sprintf("no %s server started: %s already running (maxServers)", sp.name, plural(len(p.servers), "server"))}
	}
	s := &server{p: p, spec: sp, root: root, name: filepath.Base(sp.commands[0][0])}
	if argv := sp.command(); argv != nil {
		s.name = filepath.Base(argv[0])
	}
	p.servers[key] = s
	return s, nil
}

// findRoot returns the nearest directory from dir up to workspace (both included) that holds one
// of markers, or "" when none does or dir is not under workspace.
func findRoot(dir, workspace string, markers []string) string {
	rel, err := filepath.Rel(workspace, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	for {
		for _, m := range markers {
			if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
				return dir
			}
		}
		if dir == workspace {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// countFiles counts the files under root, skipping .git and node_modules directories, and stops
// once it has passed limit.
func countFiles(root string, limit int) int {
	n := 0
	stop := errors.New("enough")
	_ = filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		n++
		if n > limit {
			return stop
		}
		return nil
	})
	return n
}

// get returns the running client, starting it when none runs and the back-off allows.
func (s *server) get(ctx context.Context) (*lsp.Client, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, &unavailableError{s.name + " is shutting down"}
		}
		if s.client != nil {
			c := s.client
			s.mu.Unlock()
			return c, nil
		}
		if s.starting != nil {
			ch := s.starting
			s.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if s.tooLarge != "" {
			why := s.tooLarge
			s.mu.Unlock()
			return nil, &unavailableError{why}
		}
		if !s.counted {
			s.counted = true
			if n := countFiles(s.root, int(s.p.cfg.MaxRootFiles)); n > int(s.p.cfg.MaxRootFiles) {
				s.tooLarge = fmt.Sprintf("%s is not started for %s: it holds more than %d files (maxRootFiles)", s.name, s.root, s.p.cfg.MaxRootFiles)
				s.mu.Unlock()
				continue
			}
		}
		if wait := time.Until(s.retry); wait > 0 {
			why := s.why
			s.mu.Unlock()
			return nil, &unavailableError{fmt.Sprintf("%s; the next start is in %s", why, wait.Round(100*time.Millisecond))}
		}
		ch := make(chan struct{})
		s.starting = ch
		s.mu.Unlock()
		c, err := s.start(ctx)
		s.mu.Lock()
		s.starting = nil
		close(ch)
		if err != nil {
			s.fail(err.Error())
			why := s.why
			s.mu.Unlock()
			if errors.Is(err, errNoProgram) && !s.spec.configured {
				return nil, errNoProgram
			}
			return nil, &unavailableError{why}
		}
		if s.closed {
			s.mu.Unlock()
			_ = c.Close(context.Background())
			return nil, &unavailableError{s.name + " is shutting down"}
		}
		s.client = c
		s.mu.Unlock()
		s.p.checks.Add(1)
		go s.watch(c)
		return c, nil
	}
}

// fail counts a failure and sets the back-off; s.mu is held.
func (s *server) fail(why string) {
	s.failures++
	backoff := time.Duration(s.p.cfg.RestartBackoff) << min(s.failures-1, 6)
	s.retry = time.Now().Add(backoff)
	s.why = why
}

// command returns the first command line whose program is found, its path resolved, or nil.
func (sp *spec) command() []string {
	for _, cmd := range sp.commands {
		if path, err := exec.LookPath(cmd[0]); err == nil {
			return append([]string{path}, cmd[1:]...)
		}
	}
	return nil
}

func (s *server) start(ctx context.Context) (*lsp.Client, error) {
	argv := s.spec.command()
	if argv == nil {
		return nil, fmt.Errorf("%w: %s server not found (%s)", errNoProgram, s.spec.name, s.spec.commands[0][0])
	}
	log := s.p.log.With(zap.String("server", s.name), zap.String("root", s.root))
	log.Info("diagnostics: starting a language server", zap.Strings("command", argv))
	var initOpts any
	if s.spec.initOptions != nil {
		initOpts = s.spec.initOptions
	}
	c, err := lsp.Start(ctx, lsp.Options{
		Command: argv[0], Args: argv[1:], Root: s.root, InitializationOptions: initOpts,
		Stderr:   func(line string) { log.Info("diagnostics: server stderr", zap.String("line", line)) },
		Dropped:  func(err error) { log.Warn("diagnostics: message dropped", zap.Error(err)) },
		MaxFrame: int(min(s.p.cfg.MaxMessageBytes, 1<<30)), Settle: s.spec.settle, Versioned: s.spec.versioned,
	})
	if err != nil {
		log.Warn("diagnostics: the language server did not start", zap.Error(err))
		return nil, fmt.Errorf("%s did not start (%v)", s.name, err)
	}
	return c, nil
}

// watch waits for the client's process to end; unless the server is being shut down, that is a
// crash: the back-off starts.
func (s *server) watch(c *lsp.Client) {
	defer s.p.checks.Done()
	<-c.Exited()
	err := c.ExitError()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != c {
		return
	}
	s.client = nil
	if s.closed {
		return
	}
	why := "exited"
	if err != nil {
		why = "exited (" + err.Error() + ")"
	}
	s.fail(s.name + " " + why)
	s.p.log.Warn("diagnostics: the language server "+why, zap.String("server", s.name), zap.String("root", s.root))
	_ = c.Close(context.Background())
}

// crashed returns the line of a check that lost its server.
func (s *server) crashed(c *lsp.Client) *unavailableError {
	<-c.Exited()
	err := c.ExitError()
	why := s.name + " exited"
	if err != nil {
		why += " (" + err.Error() + ")"
	}
	return &unavailableError{why + "; it starts again on a later change"}
}

// shutdown ends the server (the plugin is disposed).
func (s *server) shutdown(ctx context.Context) {
	s.mu.Lock()
	s.closed = true
	c := s.client
	s.mu.Unlock()
	if c != nil {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_ = c.Close(cctx)
	}
}
