package local

import (
	"context"
	"errors"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// distinct is the i-th of a family of small pass-through PNGs.
func distinct(t testing.TB, i int) []byte {
	return encPNG(t, flat(4, 4, color.NRGBA{uint8(i), uint8(i >> 8), 7, 255}))
}

// storeOn is a store on home with the given size budget.
func storeOn(t testing.TB, home string, budget int) *Store {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Home = &home
	cfg.MaxStoreBytes = budget
	s, err := New(cfg, nil)
	require.NoError(t, err)
	return s
}

func read(s *Store, ref attachments.ImageRef) error {
	_, err := s.ReadImage(context.Background(), ref)
	return err
}

func missing(t *testing.T, s *Store, ref attachments.ImageRef) {
	t.Helper()
	assert.True(t, errorIsExactly(read(s, ref), attachments.CodeNotFound, attachments.MsgNotFound), "%s should be evicted", ref.AttachmentID)
}

// Past the size budget the least recently used objects go; a verified read
// and a deduplicated save both count as a use.
func TestEvictsLeastRecentlyUsed(t *testing.T) {
	a, b, c, d := distinct(t, 1), distinct(t, 2), distinct(t, 3), distinct(t, 4)
	s := storeOn(t, filepath.Join(t.TempDir(), "home"), len(a)+len(b)+len(c))
	refA, refB, refC := save(t, s, a, "image/png"), save(t, s, b, "image/png"), save(t, s, c, "image/png")
	require.NoError(t, read(s, refA)) // A is now the most recent, B the least
	refD := save(t, s, d, "image/png")
	missing(t, s, refB)
	for _, r := range []attachments.ImageRef{refA, refC, refD} {
		require.NoError(t, read(s, r))
	}
	// Order now (oldest first): A, C, D. Saving A again is a use.
	save(t, s, a, "image/png")
	refB = save(t, s, b, "image/png")
	missing(t, s, refC)
	total, n := s.index.size()
	assert.Equal(t, 3, n)
	assert.LessOrEqual(t, total, int64(s.index.budget))
	for _, r := range []attachments.ImageRef{refA, refB, refD} {
		require.NoError(t, read(s, r))
	}
}

// An object being read is never evicted, even when it is the least
// recently used; the read completes, and the object goes at a later save.
func TestNeverEvictsAnObjectBeingRead(t *testing.T) {
	a, b, c := distinct(t, 1), distinct(t, 2), distinct(t, 3)
	s := storeOn(t, filepath.Join(t.TempDir(), "home"), len(a))
	refA := save(t, s, a, "image/png")
	hA := string(refA.AttachmentID)[len(idPrefix):]
	inRead, resume := make(chan struct{}), make(chan struct{})
	s.duringRead = func(h string) {
		if h == hA {
			close(inRead)
			<-resume
		}
	}
	done := make(chan error)
	go func() { done <- read(s, refA) }()
	<-inRead
	refB := save(t, s, b, "image/png") // over budget: A is the only victim, and it is pinned
	_, err := os.Stat(objectOf(s, refA))
	require.NoError(t, err, "the object being read stays")
	close(resume)
	require.NoError(t, <-done)
	s.duringRead = nil
	save(t, s, c, "image/png")
	missing(t, s, refA)
	missing(t, s, refB)
}

// The objects of a batch stay until the batch returns, and an object just
// saved stays even when it alone exceeds the budget: objects in use are
// never evicted.
func TestObjectsInUseOutliveTheBudget(t *testing.T) {
	s := storeOn(t, filepath.Join(t.TempDir(), "home"), 1)
	refs, err := s.SaveImages(context.Background(), []attachments.SaveImage{saveInput(distinct(t, 1)), saveInput(distinct(t, 2))})
	require.NoError(t, err)
	for _, r := range refs {
		require.NoError(t, read(s, r), "every member of the batch is there when it returns")
	}
	ref := save(t, s, distinct(t, 3), "image/png")
	require.NoError(t, read(s, ref))
	for _, r := range refs {
		missing(t, s, r)
	}
}

// The index is built once, at the first save, from the files' mtimes (so
// reads made by an earlier process still count); saves never list the
// directories again, and names that are not objects are never deleted.
func TestIndexIsRebuiltOnceAtStart(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	a, b, c, d := distinct(t, 1), distinct(t, 2), distinct(t, 3), distinct(t, 4)
	first := storeOn(t, home, 1<<30)
	refs := []attachments.ImageRef{save(t, first, a, "image/png"), save(t, first, b, "image/png"), save(t, first, c, "image/png")}
	base := time.Now().Add(-time.Hour)
	for i, r := range refs {
		require.NoError(t, os.Chtimes(objectOf(first, r), base.Add(time.Duration(i)*time.Minute), base.Add(time.Duration(i)*time.Minute)))
	}
	require.NoError(t, read(first, refs[0])) // persisted: A's mtime is now

	// A later process: B is the least recently used.
	second := storeOn(t, home, len(a)+len(b)+len(c))
	junk := filepath.Join(second.root, objectsDir, "ab", "not-an-object")
	require.NoError(t, os.MkdirAll(filepath.Dir(junk), 0o700))
	require.NoError(t, os.WriteFile(junk, make([]byte, 4096), 0o600))
	save(t, second, d, "image/png")
	missing(t, second, refs[1])
	require.NoError(t, read(second, refs[0]))
	require.NoError(t, read(second, refs[2]))

	// A foreign object appearing after the build is not seen by later saves.
	stray := distinct(t, 9)
	h := sha(stray)[len(idPrefix):]
	require.NoError(t, os.MkdirAll(filepath.Join(second.root, objectsDir, h[:2]), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(second.root, objectsDir, h[:2], h), stray, 0o600))
	total, n := second.index.size()
	save(t, second, a, "image/png")
	total2, n2 := second.index.size()
	assert.Equal(t, []int64{total, int64(n)}, []int64{total2, int64(n2)}, "no rescan: the dedup save changes nothing")
	_, err := os.Stat(junk)
	assert.NoError(t, err, "a file that is not an object is never evicted")
}

const evictCrashEnv = "ATTACHMENT_LOCAL_EVICT_CRASH_HOME"

// TestEvictCrashChild is the child of TestCrashDuringEviction: it saves one
// more image into a full store and dies right after the first eviction.
func TestEvictCrashChild(t *testing.T) {
	home := os.Getenv(evictCrashEnv)
	if home == "" {
		t.Skip("child process of TestCrashDuringEviction")
	}
	budget, err := strconv.Atoi(os.Getenv(evictCrashEnv + "_BUDGET"))
	require.NoError(t, err)
	s := storeOn(t, home, budget)
	s.index.afterEvict = func(string) { os.Exit(3) }
	_, _ = s.SaveImage(context.Background(), saveInput(distinct(t, 100)))
	t.Fatal("not reached")
}

// A process killed in the middle of an eviction leaves every object either
// whole (it verifies) or gone: never a partial object.
func TestCrashDuringEviction(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	s := storeOn(t, home, 1<<30)
	var refs []attachments.ImageRef
	total := 0
	for i := range 8 {
		img := distinct(t, i)
		refs = append(refs, save(t, s, img, "image/png"))
		total += len(img)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEvictCrashChild$")
	cmd.Env = append(os.Environ(), evictCrashEnv+"="+home, evictCrashEnv+"_BUDGET="+strconv.Itoa(total/2))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "%v: %s", err, out)
	require.Equal(t, 3, exit.ExitCode(), "%s", out)

	after := storeOn(t, home, 1<<30)
	gone := 0
	for _, r := range refs {
		err := read(after, r)
		if attachments.HasCode(err, attachments.CodeNotFound) {
			gone++
			continue
		}
		require.NoError(t, err, "a surviving object verifies")
	}
	assert.Equal(t, 1, gone, "the child died after its first eviction")
	ref := attachments.ImageRef{AttachmentID: attachments.AttachmentID(sha(distinct(t, 100))), MediaType: "image/png", Bytes: len(distinct(t, 100)), Width: 4, Height: 4}
	require.NoError(t, read(after, ref), "the image being saved was published before the eviction")
}

// Concurrent saves and reads under a tight budget: a read returns the
// verified bytes or ATTACHMENT_NOT_FOUND, never a corrupt object, and the
// index ends within the budget.
func TestConcurrentEviction(t *testing.T) {
	img := distinct(t, 0)
	s := storeOn(t, filepath.Join(t.TempDir(), "home"), 4*len(img))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 25 {
				ref, err := s.SaveImage(context.Background(), saveInput(distinct(t, g*100+i)))
				if !assert.NoError(t, err) {
					return
				}
				if err := read(s, ref); err != nil {
					assert.True(t, attachments.HasCode(err, attachments.CodeNotFound), "%v", err)
				}
			}
		})
	}
	wg.Wait()
	total, n := s.index.size()
	assert.LessOrEqual(t, total, int64(4*len(img)+8))
	assert.LessOrEqual(t, n, 5)
	entries, err := filepath.Glob(filepath.Join(s.root, objectsDir, "*", "*"))
	require.NoError(t, err)
	assert.Equal(t, n, len(entries), "the index matches the files")
}
