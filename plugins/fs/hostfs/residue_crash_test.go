package hostfs_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// residueHelperEnv selects TestHelperResidueProcess: "block" (one write of crashTargetEnv that
// stops after staging its temp file, printing "staged <dir>", until stdin closes), "linked" (one
// replacement of crashTargetEnv through an unnamed temp file that stops once it is linked,
// printing "linked <path>", until stdin closes) or "start" (a provider starts, and the process
// exits).
const residueHelperEnv = "CORDON_FSLOCAL_RESIDUE_HELPER"

// TestHelperResidueProcess is a child of TestStartSweepsResidueOfKilledWriters; it does
// nothing in a normal test run.
func TestHelperResidueProcess(t *testing.T) {
	mode := os.Getenv(residueHelperEnv)
	if mode == "" {
		return
	}
	p, err := hostfs.New(hostfs.Config{Cwd: os.Getenv(crashHelperEnv)}, nil)
	require.NoError(t, err)
	if mode == "start" {
		fmt.Println("started")
		return
	}
	if mode == "linked" {
		hostfs.SetLinked(p, func(temp string) {
			fmt.Println("linked", temp)
			_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		})
		tg := resolve(t, p, os.Getenv(crashTargetEnv))
		if root := os.Getenv(crashBeneathEnv); root != "" {
			_, err = p.WriteTextBeneath(context.Background(), tg, "complete", nil, hostfs.Beneath{Root: root})
		} else {
			_, err = p.WriteText(context.Background(), tg, "complete", nil)
		}
		require.NoError(t, err)
		fmt.Println("written")
		return
	}
	hostfs.SetInspectTemp(p, func(stagingDir, _ string) {
		fmt.Println("staged", stagingDir)
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	})
	_, err = p.WriteText(context.Background(), resolve(t, p, os.Getenv(crashTargetEnv)), "complete", nil)
	require.NoError(t, err)
	fmt.Println("written")
}

// residueIn lists the staging directories under root, at any depth.
func residueIn(t *testing.T, roots ...string) []string {
	t.Helper()
	var out []string
	for _, root := range roots {
		require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && strings.HasSuffix(d.Name(), ".tmpdir") {
				out = append(out, path)
				return filepath.SkipDir
			}
			return nil
		}))
	}
	return out
}

// holdsTemp reports whether left is one staging directory holding a temp file.
func holdsTemp(t *testing.T, left []string) bool {
	t.Helper()
	if len(left) != 1 {
		return false
	}
	temps, err := os.ReadDir(left[0])
	return err == nil && len(temps) == 1
}

// A writer killed with SIGKILL inside the write window leaves its staging directory and partial
// temp file; the next process whose provider starts removes them, wherever they are: deep in
// the workspace, outside it (an absolute path), beneath a confining root (fs-sandbox's writes),
// beside a target whose long name the staging name shortens. A starting process never removes
// the staging directory of a live writer, which then completes its write.
func TestStartSweepsResidueOfKilledWriters(t *testing.T) {
	ws, outside := crashDir(t), crashDir(t)
	// The kill loop stages in directories: an unnamed temp file leaves residue only in the
	// instant between its link and its rename (TestStartSweepsALinkedTempFile).
	env := []string{crashHelperEnv + "=" + ws, "XDG_STATE_HOME=" + t.TempDir()}
	kills := append(env, crashStagingEnv+"=1")
	targets := []struct{ name, target, beneath string }{
		{"deep in the workspace", filepath.Join(ws, "a", "b", "c", "d", "e", "f", "g", "deep.bin"), ""},
		{"outside the workspace", filepath.Join(outside, "elsewhere.bin"), ""},
		{"beneath a confining root", filepath.Join(ws, "confined", "x.bin"), ws},
		{"a long name", filepath.Join(ws, strings.Repeat("L", 250)), ""},
	}
	var previous []string
	for _, tc := range targets {
		require.NoError(t, os.MkdirAll(filepath.Dir(tc.target), 0o755))
		// Kill writers until one dies with its partial temp file staged.
		var left []string
		for attempt := 0; attempt < 30 && !holdsTemp(t, left); attempt++ {
			_, err := killWriter(append(kills, crashTargetEnv+"="+tc.target, crashBeneathEnv+"="+tc.beneath), time.Duration(attempt%10)*3*time.Millisecond)
			require.NoError(t, err)
			for _, d := range previous {
				assert.NoDirExists(t, d, "%s: the killed writer's residue is gone once the next process started", tc.name)
			}
			left = residueIn(t, filepath.Dir(tc.target))
			require.LessOrEqual(t, len(left), 1, "%s: at most the last kill's residue", tc.name)
			previous = left
		}
		require.True(t, holdsTemp(t, left), "%s: a kill inside the write window leaves residue", tc.name)
	}

	// A live writer stops with its temp file staged; it starts, so it sweeps the last residue.
	live := exec.Command(os.Args[0], "-test.run=^TestHelperResidueProcess$", "-test.count=1")
	live.Env = append(os.Environ(), append(env, residueHelperEnv+"=block", crashTargetEnv+"="+filepath.Join(ws, "live.bin"))...)
	stdin, err := live.StdinPipe()
	require.NoError(t, err)
	stdout, err := live.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, live.Start())
	defer func() { _ = live.Process.Kill(); _ = live.Wait() }()
	lines := bufio.NewScanner(stdout)
	require.True(t, lines.Scan())
	staged, ok := strings.CutPrefix(lines.Text(), "staged ")
	require.True(t, ok, lines.Text())
	assert.NoDirExists(t, previous[0])
	assert.Equal(t, []string{staged}, residueIn(t, ws, outside), "only the live writer's staging directory")

	// Another process starts while the writer is live: the staging directory stays.
	start := exec.Command(os.Args[0], "-test.run=^TestHelperResidueProcess$", "-test.count=1")
	start.Env = append(os.Environ(), append(env, residueHelperEnv+"=start")...)
	out, err := start.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "started")
	assert.DirExists(t, staged, "a live process's staging directory is never removed")

	require.NoError(t, stdin.Close())
	require.True(t, lines.Scan())
	assert.Equal(t, "written", lines.Text())
	require.NoError(t, live.Wait())
	assert.Equal(t, "complete", readDisk(t, filepath.Join(ws, "live.bin")))
	assert.Empty(t, residueIn(t, ws, outside))
}

// A writer killed with SIGKILL between the link of its unnamed temp file and the rename over the
// target leaves that complete file beside the target (recorded in its registry); the next process
// to start removes it, unconfined or beneath a confining root, and the target keeps its old
// content. A live writer's linked file survives another start, and its write completes.
func TestStartSweepsALinkedTempFile(t *testing.T) {
	ws := crashDir(t)
	env := []string{crashHelperEnv + "=" + ws, "XDG_STATE_HOME=" + t.TempDir()}
	linked := func(target, beneath string) (*exec.Cmd, io.WriteCloser, *bufio.Scanner, string) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperResidueProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), append(env, residueHelperEnv+"=linked", crashTargetEnv+"="+target, crashBeneathEnv+"="+beneath)...)
		stdin, err := cmd.StdinPipe()
		require.NoError(t, err)
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		lines := bufio.NewScanner(stdout)
		require.True(t, lines.Scan())
		temp, ok := strings.CutPrefix(lines.Text(), "linked ")
		require.True(t, ok, lines.Text())
		assert.Equal(t, filepath.Dir(target), filepath.Dir(temp), "linked beside its target")
		assert.Equal(t, "complete", readDisk(t, temp), "linked complete")
		return cmd, stdin, lines, temp
	}
	start := func() {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperResidueProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), append(env, residueHelperEnv+"=start")...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Contains(t, string(out), "started")
	}
	for _, tc := range []struct{ name, target, beneath string }{
		{"unconfined", filepath.Join(ws, "a", "doc.txt"), ""},
		{"beneath a confining root", filepath.Join(ws, "confined", "doc.txt"), ws},
	} {
		require.NoError(t, os.MkdirAll(filepath.Dir(tc.target), 0o755))
		require.NoError(t, os.WriteFile(tc.target, []byte("old"), 0o644))
		cmd, _, _, temp := linked(tc.target, tc.beneath)
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()
		assert.FileExists(t, temp, "%s: the kill left the linked file", tc.name)
		start()
		assert.NoFileExists(t, temp, "%s: the next start removed it", tc.name)
		assert.Equal(t, "old", readDisk(t, tc.target), tc.name)
	}

	target := filepath.Join(ws, "live.txt")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	cmd, stdin, lines, temp := linked(target, "")
	start()
	assert.FileExists(t, temp, "a live process's linked file is never removed")
	require.NoError(t, stdin.Close())
	require.True(t, lines.Scan())
	assert.Equal(t, "written", lines.Text())
	require.NoError(t, cmd.Wait())
	assert.Equal(t, "complete", readDisk(t, target))
	assert.NoFileExists(t, temp)
}
