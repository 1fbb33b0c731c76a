//go:build tools

// Package deps pins module dependencies that are not yet imported by code.
package deps

import (
	_ "github.com/asaskevich/EventBus"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/sergi/go-diff/diffmatchpatch"
	_ "github.com/stretchr/testify/require"
	_ "go.uber.org/fx"
	_ "go.uber.org/goleak"
	_ "go.uber.org/zap"
	_ "go.yaml.in/yaml/v3"
	_ "golang.org/x/image/webp"
	_ "golang.org/x/sys/unix"
)
