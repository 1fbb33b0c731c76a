package search

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// loadRules returns the shared rules of a search: the user's global excludes file.
func loadRules() *rules {
	rs := &rules{}
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

// configExcludesFile reads core.excludesFile from one git config file (the last assignment wins;
// include directives are not followed).
func configExcludesFile(path string) (string, bool) {
	f, err := openRegular(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	var value string
	found := false
	inCore := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				inCore = false
				continue
			}
			inCore = strings.EqualFold(strings.TrimSpace(line[1:end]), "core")
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		if !inCore {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(key), "excludesfile") {
			continue
		}
		value, found = configValue(val), true
	}
	return value, found
}

// configValue strips an inline comment and surrounding quotes from a config value.
func configValue(v string) string {
	v = strings.TrimSpace(v)
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			default:
				b.WriteByte(v[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// expandHome expands a leading "~/" against home.
func expandHome(p, home string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	return p
}
