// clients.mjs knows how to start each pinned coding agent non-interactively against the mock model,
// with `harness serve` as its MCP server named "cordon" over stdio or HTTP. Each client gets its own
// HOME (so no user config leaks in), the vendor's telemetry, update checks and nonessential traffic
// turned off by env and config, and runs its platform binary directly (no npm postinstall needed).

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** PROMPT is the user turn; the mock ignores it and follows its script. */
export const PROMPT = "Use the cordon tools as asked.";

const BLACKHOLE = "http://127.0.0.1:9"; // the discard port: nothing listens there

/** baseEnv is every client's environment: a fresh HOME and XDG dirs, no TTY, CI=true. */
function baseEnv(home, nodeBin) {
  const env = {
    PATH: `${nodeBin}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    CI: "true",
    TERM: "dumb",
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    TMPDIR: join(home, "tmp"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local/share"),
    XDG_STATE_HOME: join(home, ".local/state"),
    // Whatever a client still tries to reach off this machine (telemetry, updates, plugin and model
    // lists) goes to a closed loopback port and fails at once instead of waiting on the network.
    HTTP_PROXY: BLACKHOLE,
    HTTPS_PROXY: BLACKHOLE,
    http_proxy: BLACKHOLE,
    https_proxy: BLACKHOLE,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    npm_config_registry: BLACKHOLE,
  };
  for (const k of ["TMPDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"]) mkdirSync(env[k], { recursive: true });
  return env;
}

const toml = (v) => JSON.stringify(v); // a TOML basic string or array of them is JSON's form

/**
 * CLIENTS: name -> {label, wire, launch({nm, nodeBin, home, ws, model, mcp})} where mcp is
 * {command, args} (stdio), {url} (HTTP) or null (no MCP server: the baseline), and launch returns
 * {cmd, args, env}.
 */
export const CLIENTS = {
  claude: {
    label: "Claude Code 2.1.332",
    wire: "anthropic",
    launch({ nm, nodeBin, home, model, mcp }) {
      const servers = !mcp ? {} : { cordon: mcp.url ? { type: "http", url: mcp.url } : { type: "stdio", command: mcp.command, args: mcp.args } };
      const env = {
        ...baseEnv(home, nodeBin),
        ANTHROPIC_BASE_URL: model,
        ANTHROPIC_API_KEY: "sk-ant-mock",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_ERROR_REPORTING: "1",
        DISABLE_BUG_COMMAND: "1",
        ENABLE_TOOL_SEARCH: "false", // offer the MCP tools in the request, not behind a search tool
      };
      return {
        cmd: join(nm, "@anthropic-ai/claude-code-linux-x64/claude"),
        args: ["-p", PROMPT, "--output-format", "stream-json", "--verbose", "--max-turns", "60",
          "--mcp-config", JSON.stringify({ mcpServers: servers }), "--strict-mcp-config",
          "--allowedTools", "mcp__cordon"],
        env,
      };
    },
  },

  codex: {
    label: "Codex CLI 0.171.0",
    wire: "responses",
    launch({ nm, nodeBin, home, ws, model, mcp }) {
      const codexHome = join(home, ".codex");
      mkdirSync(codexHome, { recursive: true });
      const server = !mcp ? [] : [`[mcp_servers.cordon]`, ...(mcp.url ? [`url = ${toml(mcp.url)}`] : [`command = ${toml(mcp.command)}`, `args = ${toml(mcp.args)}`]),
        `startup_timeout_sec = 30`, `tool_timeout_sec = 60`];
      writeFileSync(join(codexHome, "config.toml"), [
        `model = "gpt-5.5"`,
        `model_provider = "mock"`,
        `approval_policy = "never"`,
        `sandbox_mode = "danger-full-access"`,
        `check_for_update_on_startup = false`,
        ``,
        `[model_providers.mock]`,
        `name = "mock"`,
        `base_url = ${toml(`${model}/v1`)}`,
        `wire_api = "responses"`,
        `env_key = "MOCK_API_KEY"`,
        `request_max_retries = 0`,
        `stream_max_retries = 0`,
        ``,
        ...server,
        ``,
        `[analytics]`,
        `enabled = false`,
        ``,
        `[projects.${toml(ws)}]`,
        `trust_level = "trusted"`,
        ``,
      ].join("\n"));
      return {
        cmd: join(nm, "@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"),
        args: ["exec", "--skip-git-repo-check", "--json", "--dangerously-bypass-approvals-and-sandbox", "-C", ws, PROMPT],
        env: { ...baseEnv(home, nodeBin), CODEX_HOME: codexHome, MOCK_API_KEY: "mock", RUST_LOG: "warn" },
      };
    },
  },

  opencode: {
    label: "opencode 1.18.33",
    wire: "chat",
    launch({ nm, nodeBin, home, model, mcp }) {
      const config = join(home, "opencode.json");
      writeFileSync(config, JSON.stringify({
        autoupdate: false,
        share: "disabled",
        model: "mock/mock-model",
        provider: {
          mock: {
            npm: "@ai-sdk/openai-compatible",
            name: "Mock",
            options: { baseURL: `${model}/v1`, apiKey: "mock" },
            models: {
              "mock-model": {
                name: "Mock Model", attachment: true, tool_call: true, reasoning: false, temperature: true,
                modalities: { input: ["text", "image"], output: ["text"] },
                limit: { context: 200000, output: 8192 },
              },
            },
          },
        },
        mcp: !mcp ? {} : { cordon: mcp.url ? { type: "remote", url: mcp.url, enabled: true } : { type: "local", command: [mcp.command, ...mcp.args], enabled: true } },
        permission: { edit: "allow", bash: "allow", webfetch: "allow" },
      }, null, 2));
      return {
        cmd: join(nm, "opencode-linux-x64/bin/opencode"),
        args: ["run", "--print-logs", "--pure", "--model", "mock/mock-model", PROMPT],
        env: {
          ...baseEnv(home, nodeBin),
          OPENCODE_CONFIG: config,
          OPENCODE_DISABLE_AUTOUPDATE: "1",
          OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
          OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
          OPENCODE_DISABLE_MODELS_FETCH: "1",
          OPENCODE_DISABLE_SHARE: "1",
          OPENCODE_DISABLE_CLAUDE_CODE: "1",
          OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
        },
      };
    },
  },

  gemini: {
    label: "Gemini CLI 0.61.0",
    wire: "gemini",
    launch({ nm, nodeBin, home, model, mcp }) {
      const dir = join(home, ".gemini");
      mkdirSync(dir, { recursive: true });
      const servers = !mcp ? {} : { cordon: mcp.url ? { httpUrl: mcp.url, trust: true } : { command: mcp.command, args: mcp.args, trust: true } };
      writeFileSync(join(dir, "settings.json"), JSON.stringify({
        security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        ide: { enabled: false },
        mcpServers: servers,
      }, null, 2));
      return {
        cmd: join(nodeBin, "node"),
        args: [join(nm, "@google/gemini-cli/bundle/gemini.js"), "-p", PROMPT, "--yolo", "-m", "gemini-2.5-pro", "--output-format", "json"],
        env: {
          ...baseEnv(home, nodeBin),
          GEMINI_API_KEY: "mock",
          GOOGLE_GEMINI_BASE_URL: model,
          GEMINI_CLI_NO_RELAUNCH: "true",
          GEMINI_CLI_TRUST_WORKSPACE: "true",
        },
      };
    },
  },
};
