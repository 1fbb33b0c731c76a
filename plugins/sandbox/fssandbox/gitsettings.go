package fssandbox

import (
	"path/filepath"
	"strings"

	"github.com/cordon-dev/cordon/internal/gitconfig"
)

// The settings of a git config that name paths git reads or runs (docs/sandbox.md "Paths a
// repository's config names"), and how a value names them.

// pathSetting reports the settings whose value is one path.
func pathSetting(e gitconfig.Entry) bool {
	sub := e.HasSub
	switch e.Section {
	case "core":
		return !sub && e.Key == "hookspath"
	case "init":
		return !sub && e.Key == "templatedir"
	case "difftool", "mergetool", "browser", "man", "guitool":
		return sub && e.Key == "path"
	}
	return false
}

// commandSetting reports the settings whose value is a shell command git runs (git-config(1)).
func commandSetting(e gitconfig.Entry) bool {
	sub := e.HasSub
	k := e.Key
	switch e.Section {
	case "core":
		return !sub && oneOf(k, "fsmonitor", "sshcommand", "editor", "pager", "askpass", "gitproxy", "alternaterefscommand")
	case "sequence":
		return !sub && k == "editor"
	case "diff":
		return (!sub && k == "external") || (sub && oneOf(k, "command", "textconv"))
	case "difftool", "mergetool", "browser", "man", "guitool":
		return sub && k == "cmd"
	case "merge":
		return sub && k == "driver"
	case "filter":
		return sub && oneOf(k, "clean", "smudge", "process")
	case "credential":
		return k == "helper"
	case "gpg":
		return k == "program" || (e.Subsection == "ssh" && k == "defaultkeycommand")
	case "pager", "alias":
		return !sub
	case "interactive":
		return !sub && k == "difffilter"
	case "remote":
		return sub && oneOf(k, "uploadpack", "receivepack")
	case "uploadpack":
		return !sub && k == "packobjectshook"
	case "sendemail":
		return oneOf(k, "smtpserver", "sendmailcmd", "tocmd", "cccmd", "headercmd")
	case "imap":
		return !sub && k == "tunnel"
	case "trailer":
		return sub && oneOf(k, "command", "cmd")
	case "submodule":
		return sub && k == "update"
	}
	return false
}

func oneOf(s string, set ...string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

// commandPaths returns the words of the shell command v that contain a "/" (after quote removal),
// the part after the first "=" of a word when that part contains one, and the same of a word
// that is itself a command (one with white space: sh -c '...'), one level down.
func commandPaths(v string) []string { return appendCommandPaths(nil, v, 1) }

func appendCommandPaths(out []string, v string, nested int) []string {
	for _, w := range shellWords(strings.TrimPrefix(strings.TrimSpace(v), "!")) {
		if strings.Contains(w, "/") {
			out = append(out, w)
		}
		if _, after, ok := strings.Cut(w, "="); ok && strings.Contains(after, "/") {
			out = append(out, after)
		}
		if nested > 0 && strings.ContainsAny(w, " \t\n") {
			out = appendCommandPaths(out, w, nested-1)
		}
	}
	return out
}

// shellWords splits s into words as a POSIX shell does for the purpose of naming files: white
// space and the operators ; | & ( ) < > ` separate words, '...' is literal, "..." keeps its
// content with \\ \" \$ \` escapes, and a backslash outside quotes takes the next byte literally.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in := false
	flush := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			in = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`\n", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			in = true
			i++
			cur.WriteByte(s[i])
		case strings.IndexByte(" \t\n;|&()<>`", c) >= 0:
			flush()
		default:
			in = true
			cur.WriteByte(c)
		}
	}
	flush()
	return words
}

// expandPath makes a config path absolute: "~" and "~/x" (and "$HOME/x") from home, an absolute
// path as it is, a relative one beneath base. "~user/x" is not expanded (false).
func expandPath(v, base, home string) (string, bool) {
	switch {
	case v == "" || strings.IndexByte(v, 0) >= 0:
		return "", false
	case v == "~" || strings.HasPrefix(v, "~/"):
		if home == "" {
			return "", false
		}
		return home + v[1:], true
	case strings.HasPrefix(v, "~"):
		return "", false
	case strings.HasPrefix(v, "$HOME/"), strings.HasPrefix(v, "${HOME}/"):
		if home == "" {
			return "", false
		}
		return home + v[strings.IndexByte(v, '/'):], true
	case filepath.IsAbs(v):
		return v, true
	}
	return base + string(filepath.Separator) + v, true
}
