/** The admin area's own sub-navigation (platform admins only). */
export const AdminNav = ({ current }: { current: string }) => (
  <nav aria-label="Admin">
    <ul class="buttons">
      {[
        { href: "/admin", label: "Settings" },
        { href: "/admin/inventory", label: "Regions and gateways" },
        { href: "/admin/agents", label: "Agents" },
        { href: "/admin/directory", label: "Directory" },
      ].map((entry) => (
        <li>
          <a href={entry.href} aria-current={entry.href === current ? "page" : undefined}>
            {entry.label}
          </a>
        </li>
      ))}
    </ul>
  </nav>
);
