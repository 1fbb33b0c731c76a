package toolfs

import (
	"strings"

	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// ReadMeta is the replayable presentation meta of a read: the window plus an optional syntax
// highlighting hint derived from the path's extension.
type ReadMeta struct {
	Path       string `json:"path"`
	Offset     int    `json:"offset"`
	Lines      []Line `json:"lines"`
	TotalLines int    `json:"totalLines"`
	Lang       string `json:"lang,omitempty"`
}

// DiffMeta is the replayable presentation meta of a write or an edit: one entry per hunk.
type DiffMeta = filetool.DiffMeta

// FileDiff is one hunk of a write or an edit (filetool.FileDiff).
type FileDiff = filetool.FileDiff

// readMetaOf projects a read value into its presentation meta.
func readMetaOf(v ReadValue) ReadMeta {
	return ReadMeta{Path: v.Path, Offset: v.Offset, Lines: v.Lines, TotalLines: v.TotalLines, Lang: LangFromPath(v.Path)}
}

// langByExtension maps a lower-cased extension (no dot) to a highlighting language hint.
var langByExtension = map[string]string{
	"ts": "ts", "tsx": "tsx", "mts": "ts", "cts": "ts",
	"js": "js", "jsx": "jsx", "mjs": "js", "cjs": "js",
	"json": "json", "jsonc": "json",
	"py": "py", "rb": "rb", "go": "go", "rs": "rs", "java": "java",
	"c": "c", "h": "c", "cc": "cpp", "cpp": "cpp", "hpp": "cpp", "cxx": "cpp",
	"cs": "cs", "kt": "kotlin", "swift": "swift", "php": "php",
	"sh": "sh", "bash": "sh", "zsh": "sh",
	"yaml": "yaml", "yml": "yaml", "toml": "toml", "ini": "ini",
	"md": "md", "markdown": "md", "mdx": "mdx",
	"html": "html", "htm": "html", "css": "css", "scss": "scss", "less": "less",
	"sql": "sql", "xml": "xml", "lua": "lua",
}

// LangFromPath returns the language hint of a path's extension, or "" when there is none: the
// basename is taken after the last '/' or '\', a dotfile or a name without a dot has no extension,
// and the extension is matched case-insensitively.
func LangFromPath(path string) string {
	base := path[strings.LastIndexAny(path, `/\`)+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 {
		return ""
	}
	return langByExtension[strings.ToLower(base[dot+1:])]
}
