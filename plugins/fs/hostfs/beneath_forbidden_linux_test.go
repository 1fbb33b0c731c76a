package hostfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// Forbidden directories are checked against the held parent right before publication, fresh:
// a parent that became a forbidden directory after it was opened (renamed onto it, or exchanged
// with it) is refused with a cause wrapping ErrForbidden, and nothing is published in it.
func TestBeneathForbiddenAtPublication(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		for name, swap := range map[string]func(d, git string) error{
			"renamed onto": func(d, git string) error { return os.Rename(d, git) },
			"exchanged": func(d, git string) error {
				return unix.Renameat2(unix.AT_FDCWD, d, unix.AT_FDCWD, git, unix.RENAME_EXCHANGE)
			},
		} {
			t.Run(name, func(t *testing.T) {
				fx := newBeneathFixture(t)
				d, git := filepath.Join(fx.ws, "d"), filepath.Join(fx.ws, ".git")
				require.NoError(t, os.Mkdir(d, 0o755))
				if name == "exchanged" {
					require.NoError(t, os.Mkdir(git, 0o755))
				}
				fx.beneath.Forbidden = func() []os.FileInfo {
					if fi, err := os.Stat(git); err == nil {
						return []os.FileInfo{fi}
					}
					return nil
				}
				tg := fx.resolveT(filepath.Join(d, "f.txt"))
				hooks := &atomicHooks{inspectTemp: func(string, string) { require.NoError(t, swap(d, git)) }}
				_, err := fx.write(tg, "x", nil, hooks)
				requireDenied(t, fx, err)
				assert.True(t, errors.Is(err, ErrForbidden), "%v", err)
				assert.Empty(t, entries(t, git), "nothing published in the forbidden directory")
			})
		}
		// A forbidden directory elsewhere does not refuse.
		fx := newBeneathFixture(t)
		require.NoError(t, os.Mkdir(filepath.Join(fx.ws, ".git"), 0o755))
		fx.beneath.Forbidden = func() []os.FileInfo {
			fi, err := os.Stat(filepath.Join(fx.ws, ".git"))
			require.NoError(t, err)
			return []os.FileInfo{fi}
		}
		_, err := fx.p.WriteTextBeneath(fx.ctx, fx.resolveT(filepath.Join(fx.ws, "sub", "f.txt")), "x", nil, fx.beneath)
		require.NoError(t, err)
	})
}
