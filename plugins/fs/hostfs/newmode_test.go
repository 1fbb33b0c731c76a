package hostfs_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

const (
	umaskEnv  = "CORDON_HOSTFS_UMASK"
	umaskDone = "umask: files written"
)

// newFileWays creates name (relative to dir) as a new file in each way a
// mutation can: unguarded, guarded (no-replace link), confined beneath dir.
var newFileWays = map[string]func(p *hostfs.Provider, tg fs.Target, dir string) error{
	"write": func(p *hostfs.Provider, tg fs.Target, _ string) error {
		_, err := p.WriteText(context.Background(), tg, "x", nil)
		return err
	},
	"create": func(p *hostfs.Provider, tg fs.Target, _ string) error {
		_, err := p.WriteText(context.Background(), tg, "x", fs.CreateIfAbsent())
		return err
	},
	"beneath": func(p *hostfs.Provider, tg fs.Target, dir string) error {
		_, err := p.WriteTextBeneath(context.Background(), tg, "x", nil, hostfs.Beneath{Root: dir})
		return err
	},
}

// A new file gets what open(O_CREAT, 0666) would give it: 0644 under the
// umask 022, 0600 under 077 (it used to be 0600 whatever the umask). The umask
// is process-wide, so each runs in a child process (TestHelperUmask).
func TestNewFileModeFollowsTheUmask(t *testing.T) {
	for umask, want := range map[string]os.FileMode{"022": 0o644, "077": 0o600, "002": 0o664} {
		t.Run(umask, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperUmask$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), umaskEnv+"="+umask+":"+dir)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			require.Contains(t, string(out), umaskDone)
			for way := range newFileWays {
				assert.Equal(t, want, permOf(t, filepath.Join(dir, way, "new.txt")), way)
			}
			assert.Empty(t, residue(t, dir))
		})
	}
}

// TestHelperUmask is the child of TestNewFileModeFollowsTheUmask; it does
// nothing in a normal test run.
func TestHelperUmask(t *testing.T) {
	v := os.Getenv(umaskEnv)
	if v == "" {
		return
	}
	mask, dir, _ := strings.Cut(v, ":")
	m, err := strconv.ParseUint(mask, 8, 32)
	require.NoError(t, err)
	unix.Umask(int(m))
	p, err := hostfs.New(hostfs.Config{Cwd: dir}, nil)
	require.NoError(t, err)
	for way, create := range newFileWays {
		require.NoError(t, create(p, resolve(t, p, way+"/new.txt"), dir), way)
	}
	t.Log(umaskDone)
}
