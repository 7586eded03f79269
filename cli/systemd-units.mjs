// The systemd units wgo runs as, from this one source: the device's (`wgo up` at start, then `wgo
// heartbeat --apply`) and the gateway agent's (`wgo gateway run`). `wgo install-service` writes them with
// the absolute paths of node and wgo, since systemd neither searches PATH the way a shell does nor
// knows where `npm link` put wgo.

/**
 * A value in ExecStart= (or, with `exec: false`, Environment=): quoted when it has anything systemd would
 * split on. Quotes do not stop expansion: systemd expands %-specifiers in both (so % is doubled) and
 * $VARIABLES in ExecStart= only (so $ is doubled there; in Environment= it is literal).
 */
function arg(value, { exec = true } = {}) {
  const literal = exec ? value.replace(/%/g, "%%").replace(/\$/g, "$$$$") : value.replace(/%/g, "%%");
  return /^[\w@%+=:,./-]+$/.test(literal) ? literal : `"${literal.replace(/(["\\])/g, "\\$1")}"`;
}

/** Both units restart a failed wgo, except on exit 3: a refused credential, which restarting cannot fix. */
const RESTART = [
  "Restart=always",
  "RestartSec=5",
  "# Exit 3: the credential was revoked or rotated; restarting cannot help, enrolling again can.",
  "RestartPreventExitStatus=3",
  "# Stopping or restarting wgo must not take the data plane down: wireguard-go (and a gateway's DNS",
  "# server) keep running (KillMode=process signals only wgo), and the next start adopts them.",
  "KillMode=process",
];

/**
 * @param {{ node: string, wgo: string, home: string, name: string }} options absolute paths; the device's name
 * @returns {string}
 */
export function deviceUnit({ node, wgo, home, name }) {
  const exec = (args) => [node, wgo, ...args].map((value) => arg(value)).join(" ");
  return lines([
    `# wgo device "${name}": brought up at start, then heartbeats and applies its config changes.`,
    "# Written by `wgo install-service`; run it again to rewrite.",
    "[Unit]",
    `Description=wgo device ${name}: the WireGuard overlay client (heartbeat --apply)`,
    "Wants=network-online.target",
    "After=network-online.target",
    "",
    "[Service]",
    "Type=simple",
    `Environment=${arg(`WGO_HOME=${home}`, { exec: false })}`,
    "# The interface is gone after a reboot: bring it up (or re-apply it) before the loop starts.",
    `ExecStartPre=${exec(["up", "--name", name])}`,
    `ExecStart=${exec(["heartbeat", "--name", name, "--apply"])}`,
    ...RESTART,
    "# It creates the interface, addresses, routes and DNS settings.",
    "AmbientCapabilities=CAP_NET_ADMIN",
    "NoNewPrivileges=true",
    "PrivateTmp=true",
    "",
    "[Install]",
    "WantedBy=multi-user.target",
  ]);
}

/**
 * @param {{ node: string, wgo: string, stateDir: string }} options absolute paths
 * @returns {string}
 */
export function gatewayUnit({ node, wgo, stateDir }) {
  // StateDirectory= only manages directories under /var/lib; another --state-dir is the operator's own.
  const managed = stateDir.startsWith("/var/lib/") ? stateDir.slice("/var/lib/".length) : null;
  // ProtectHome hides /home and /root: only when wgo (say, from `npm link`) and its state live elsewhere.
  const protectHome = ![node, wgo, stateDir].some((path) => /^\/(home|root|run\/user)(\/|$)/.test(path));
  return lines([
    "# wgo's gateway daemon (docs/agents.md): runs this gateway's WireGuard nodes and their DNS.",
    "# Written by `wgo install-service --gateway`; run it again to rewrite.",
    "[Unit]",
    "Description=wgo gateway agent: runs this gateway's WireGuard nodes and their DNS from the control plane",
    "Wants=network-online.target",
    "After=network-online.target",
    "",
    "[Service]",
    "Type=simple",
    `Environment=${arg(`WGO_GATEWAY_STATE=${stateDir}`, { exec: false })}`,
    ...(managed
      ? [
          `# ${stateDir}, 0700, kept across restarts: the credential, each node's private key, its held config.`,
          `StateDirectory=${managed}`,
          "StateDirectoryMode=0700",
        ]
      : []),
    `ExecStart=${[node, wgo, "gateway", "run"].map((value) => arg(value)).join(" ")}`,
    ...RESTART,
    "# It creates interfaces, addresses, routes and sysctls, and binds port 53 on overlay addresses.",
    "AmbientCapabilities=CAP_NET_ADMIN CAP_NET_BIND_SERVICE",
    "NoNewPrivileges=true",
    ...(protectHome ? ["ProtectHome=true"] : []),
    "PrivateTmp=true",
    "",
    "[Install]",
    "WantedBy=multi-user.target",
  ]);
}

const lines = (list) => `${list.join("\n")}\n`;
