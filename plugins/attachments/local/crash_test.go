package local

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

const crashHomeEnv = "ATTACHMENT_LOCAL_CRASH_HOME"

// TestCrashChild is the child process of TestCrashSafety: it dies (exit 3)
// after the staging file is written and fsynced, before the link.
func TestCrashChild(t *testing.T) {
	home := os.Getenv(crashHomeEnv)
	if home == "" {
		t.Skip("child process of TestCrashSafety")
	}
	cfg := DefaultConfig()
	cfg.Home = &home
	s, err := New(cfg, nil)
	require.NoError(t, err)
	s.beforeLink = func(string) { os.Exit(3) }
	_, _ = s.SaveImage(context.Background(), attachments.SaveImage{Data: png90, MediaType: "image/png"})
	t.Fatal("not reached")
}

// A process killed in the middle of a publication leaves no object under its
// final name (only a staging file that a later mount sweeps), and the image
// can be saved again afterwards.
func TestCrashSafety(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), crashHomeEnv+"="+home)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "%v: %s", err, out)
	require.Equal(t, 3, exit.ExitCode(), "%s", out)

	cfg := DefaultConfig()
	cfg.Home = &home
	s, err := New(cfg, nil)
	require.NoError(t, err)
	ref := attachments.ImageRef{AttachmentID: png90ID, MediaType: "image/png", Bytes: 90, Width: 1, Height: 1}
	_, err = s.ReadImage(context.Background(), ref)
	assert.True(t, errorIsExactly(err, attachments.CodeNotFound, attachments.MsgNotFound), "no partial object is visible: %v", err)
	residue := dirNames(t, filepath.Join(s.root, "tmp"))
	require.Len(t, residue, 1)
	b, err := os.ReadFile(filepath.Join(s.root, "tmp", residue[0]))
	require.NoError(t, err)
	assert.Equal(t, png90, b, "the staging file was complete (fsynced before the crash)")

	// The next process start sweeps the residue.
	n, err := sweep(s.root, time.Now().Add(time.Second))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Empty(t, dirNames(t, filepath.Join(s.root, "tmp")))
	got := save(t, s, png90, "image/png")
	assert.Equal(t, ref, got)
}
