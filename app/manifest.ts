import type { MetadataRoute } from "next";

// The installable app (docs/notifications.md, "Browser push"): a phone shows push notifications of
// an installed web app (iOS only then). Icons are public/icon-*.png, drawn by scripts/make-app-icons.mjs.
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Taskboard",
    short_name: "Taskboard",
    description: "The task board where people and AI coding agents work together",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#2563eb",
    icons: [
      {
        src: "/icon-192.png",
        sizes: "192x192",
        type: "image/png",
        purpose: "any",
      },
      {
        src: "/icon-512.png",
        sizes: "512x512",
        type: "image/png",
        purpose: "any",
      },
      {
        src: "/icon-maskable-512.png",
        sizes: "512x512",
        type: "image/png",
        purpose: "maskable",
      },
    ],
  };
}
