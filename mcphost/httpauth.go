package mcphost

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Tokens are the bearer tokens of the HTTP transport (--token-file): principals by token.
type Tokens struct {
	entries []tokenEntry
}

type tokenEntry struct {
	name string
	hash [32]byte // of the token: every comparison takes the same time, whatever the token's length
}

// LoadTokens reads a token file: name:token lines (blank lines and lines starting with # are
// skipped). Errors name the line, never the token.
func LoadTokens(path string) (*Tokens, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--token-file: %w", err)
	}
	ts := &Tokens{}
	names := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, token, ok := strings.Cut(line, ":")
		name, token = strings.TrimSpace(name), strings.TrimSpace(token)
		switch {
		case !ok || name == "" || token == "":
			return nil, fmt.Errorf("--token-file %s: line %d is not name:token", path, n)
		case len(token) < 16:
			return nil, fmt.Errorf("--token-file %s: line %d: the token of %q is shorter than 16 characters", path, n, name)
		case names[name]:
			return nil, fmt.Errorf("--token-file %s: line %d: %q is named twice", path, n, name)
		}
		names[name] = true
		ts.entries = append(ts.entries, tokenEntry{name: name, hash: sha256.Sum256([]byte(token))})
	}
	if len(ts.entries) == 0 {
		return nil, fmt.Errorf("--token-file %s: no name:token line", path)
	}
	return ts, nil
}

// lookup returns the principal of a token; every entry is compared, in constant time.
func (ts *Tokens) lookup(token string) (string, bool) {
	h := sha256.Sum256([]byte(token))
	found := ""
	for _, e := range ts.entries {
		if subtle.ConstantTimeCompare(h[:], e.hash[:]) == 1 {
			found = e.name
		}
	}
	return found, found != ""
}

// verify is the auth.TokenVerifier: the principal is the token's name.
func (ts *Tokens) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	name, ok := ts.lookup(token)
	if !ok {
		return nil, fmt.Errorf("%w: unknown bearer token", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{UserID: name}, nil
}

// name is the principal of a request for the access log ("" without a valid token or a token set).
func (ts *Tokens) name(r *http.Request) string {
	if ts == nil {
		return ""
	}
	f := strings.Fields(r.Header.Get("Authorization"))
	if len(f) != 2 || !strings.EqualFold(f[0], "bearer") {
		return ""
	}
	name, _ := ts.lookup(f[1])
	return name
}
