package app

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/mcphost"
)

// The HTTP bounds have their defaults, --max-body-total follows a larger --max-body, and a bound
// that is not positive, or a budget below --max-body, is a usage error.
func TestHTTPBoundFlags(t *testing.T) {
	f, err := parseFlags("serve", []string{"--http", "127.0.0.1:0"})
	require.NoError(t, err)
	assert.Equal(t, mcphost.HTTPOptions{Addr: "127.0.0.1:0", MaxConns: 256, ReadTimeout: 30 * time.Second, MinBodyRate: 64 << 10,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxBodyTotal: 128 << 20, MaxBody: 32 << 20}, f.http)
	assert.Equal(t, 64, f.maxSessions)
	assert.Equal(t, 30*time.Minute, f.sessionIdle)

	f, err = parseFlags("serve", []string{"--http", "127.0.0.1:0", "--max-body", "1GiB"})
	require.NoError(t, err)
	assert.Equal(t, int64(1<<30), f.http.MaxBodyTotal)

	for args, want := range map[string]string{
		"--max-body-total 1MiB":  "--max-body-total (1MiB) is below --max-body (33554432 bytes)",
		"--max-conns 0":          "--max-conns, --read-timeout, --write-timeout and --idle-timeout must be positive",
		"--idle-timeout 0s":      "--max-conns, --read-timeout, --write-timeout and --idle-timeout must be positive",
		"--min-body-rate 0":      `--min-body-rate: "0" is not a positive size (such as 32MiB)`,
		"--max-body-total lots":  `--max-body-total: "lots" is not a positive size (such as 32MiB)`,
		"--read-timeout -1s":     "--max-conns, --read-timeout, --write-timeout and --idle-timeout must be positive",
		"--write-timeout 0s":     "--max-conns, --read-timeout, --write-timeout and --idle-timeout must be positive",
		"--max-conns 8 --http -": "--http",
	} {
		argv := append([]string{"--http", "127.0.0.1:0"}, strings.Fields(args)...)
		_, err := parseFlags("serve", argv)
		require.ErrorIs(t, err, errUsage, args)
		assert.Contains(t, err.Error(), want, args)
	}
	_, err = parseFlags("serve", []string{"--max-conns", "8", "--read-timeout", "1s"})
	require.ErrorIs(t, err, errUsage)
	assert.Contains(t, err.Error(), "--max-conns, --read-timeout only apply with --http")
}
