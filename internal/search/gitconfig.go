package search

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cordon-dev/cordon/internal/gitconfig"
)

// loadRules returns the shared rules of a search: the user's global excludes file, which a search
// confined beneath a directory (beneath set) does not read, as it reads nothing above it.
func loadRules(beneath string) *rules {
	rs := &rules{beneath: beneath}
	if beneath != "" {
		return rs
	}
	if p := globalExcludesPath(); p != "" {
		rs.global = rs.read(p)
	}
	return rs
}

// globalExcludesPath is git's core.excludesFile: the value in ~/.gitconfig, else in
// $XDG_CONFIG_HOME/git/config (~/.config/git/config when XDG_CONFIG_HOME is unset), else
// $XDG_CONFIG_HOME/git/ignore (~/.config/git/ignore). "" when none can be named.
func globalExcludesPath() string {
	home := os.Getenv("HOME")
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var candidates []string
	if home != "" {
		candidates = append(candidates, filepath.Join(home, ".gitconfig"))
	}
	if xdg != "" {
		candidates = append(candidates, filepath.Join(xdg, "git", "config"))
	}
	for _, c := range candidates {
		if v, ok := configExcludesFile(c); ok {
			return expandHome(v, home)
		}
	}
	if xdg == "" {
		return ""
	}
	return filepath.Join(xdg, "git", "ignore")
}

// maxConfigBytes bounds what is read of one git config file.
const maxConfigBytes = 1 << 20

// configExcludesFile reads core.excludesFile from one git config file, parsed as git parses it
// (gitconfig.Parse): the last assignment wins, a boolean one (no "=") is skipped, and
// include directives are not followed. A file git refuses still gives the value of its good lines.
func configExcludesFile(path string) (string, bool) {
	f, err := openRegular(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes))
	if err != nil {
		return "", false
	}
	entries, _ := gitconfig.Parse(data)
	var value string
	found := false
	for _, e := range entries {
		if e.Section == "core" && !e.HasSub && e.Key == "excludesfile" && e.HasValue {
			value, found = e.Value, true
		}
	}
	return value, found
}

// expandHome expands a leading "~/" against home.
func expandHome(p, home string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	return p
}
