package app

import (
	"fmt"
	"io"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// newLogger returns a console logger writing to w (the process's stderr: stdout carries the protocol)
// at the given level: debug, info, warn or error.
func newLogger(w io.Writer, level, name string) (*zap.Logger, error) {
	lvl, err := zapcore.ParseLevel(level)
	if err != nil {
		return nil, fmt.Errorf("--log-level: %w (want debug, info, warn or error)", err)
	}
	cfg := zap.NewDevelopmentEncoderConfig()
	cfg.EncodeTime = zapcore.ISO8601TimeEncoder
	cfg.EncodeLevel = zapcore.CapitalLevelEncoder
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(cfg), zapcore.Lock(zapcore.AddSync(w)), lvl)
	return zap.New(core).Named(name), nil
}
