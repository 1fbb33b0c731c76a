package toolfs

import (
	"context"
	"errors"
	"net/http"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// Bounds of the closest-name search of a missing path.
const (
	nearVisited = 5000 // directory entries walked below the nearest existing folder
	nearShown   = 3    // names shown
	sniffBytes  = 512  // bytes read to name a binary file's type
)

// withNext adds to a refusal of read the lines that name the next step (docs/tool-fs.md "read",
// "The next step"): its first line stays as it is.
func withNext(err error, lines string) error {
	var fe *fs.Error
	if lines == "" || !errors.As(err, &fe) {
		return err
	}
	return fs.NewError(fe.Kind, fe.Message+"\n"+lines, err)
}

// dirNext is the next step after read met a directory.
func dirNext(p string) string {
	return fsText.Template("read.next.directory", "quoted_path").Render(strconv.Quote(p))
}

// binaryNext is the next step after read met a binary file: read_image for an image, else its size
// and detected type.
func (s *suite) binaryNext(ctx context.Context, target fs.Target, info *fs.Info) string {
	data, err := s.fs.ReadBytes(ctx, target, sniffBytes)
	if err != nil && len(data) == 0 {
		return ""
	}
	kind := http.DetectContentType(data)
	if i := strings.IndexByte(kind, ';'); i >= 0 {
		kind = kind[:i]
	}
	size := ""
	if info != nil && info.HasSize {
		size = fsText.Template("read.next.size", "bytes").Render(strconv.FormatInt(info.Size, 10))
	}
	if img := filetool.SniffImageType(data); img != "" {
		return fsText.Template("read.next.image", "size", "type").Render(size, string(img))
	}
	return fsText.Template("read.next.binary", "size", "type").Render(size, kind)
}

// missingNext names the existing files whose names are closest to a missing path's, found below
// the nearest existing folder (bounded), or "".
func (s *suite) missingNext(ctx context.Context, target fs.Target, cwd string) string {
	sr, ok := s.fs.(fs.Searcher)
	if !ok {
		return ""
	}
	want := filepath.Base(target.DisplayPath)
	dir := filepath.Dir(target.DisplayPath)
	for range 8 {
		if t, err := s.fs.Resolve(ctx, dir, fs.ResolveOptions{Cwd: cwd}); err == nil {
			res, err := sr.Glob(ctx, t, fs.GlobQuery{Pattern: "**", SearchLimits: fs.SearchLimits{MaxVisited: nearVisited}})
			if err == nil {
				return closest(want, res.Files)
			}
			if !fs.HasCode(err, fs.CodeNotFound) && !fs.HasCode(err, fs.CodeNotDirectory) {
				return ""
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
	return ""
}

// closest spells the files whose names are nearest to want (edit distance at most a third of its
// length, at least 2; case aside), nearest first.
func closest(want string, files []fs.FoundFile) string {
	type cand struct {
		path string
		d    int
	}
	var cs []cand
	limit := max(2, len(want)/3)
	lw := strings.ToLower(want)
	for _, f := range files {
		d := distance(lw, strings.ToLower(path.Base(f.Rel)))
		if d <= limit {
			cs = append(cs, cand{f.Path, d})
		}
	}
	if len(cs) == 0 {
		return ""
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	var names []string
	for _, c := range cs[:min(len(cs), nearShown)] {
		names = append(names, strconv.Quote(c.path))
	}
	return fsText.Template("read.next.closest", "names").Render(strings.Join(names, ", "))
}

// distance is the Levenshtein distance of a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// notTextNext is a failure of read's text: a binary file gains its next step (binaryNext), an
// invalid one the charset guidance.
func (s *suite) notTextNext(ctx context.Context, target fs.Target, info *fs.Info, err error) error {
	if errors.Is(err, fs.ReadBinary(target.DisplayPath)) {
		return withNext(err, s.binaryNext(ctx, target, info))
	}
	return filetool.WithCharsetGuidance(err)
}
