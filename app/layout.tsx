import type { Metadata } from "next";
import localFont from "next/font/local";
import { Providers } from "@/components/providers";
import { ServiceWorker } from "@/components/service-worker";
import { THEME_SCRIPT } from "@/lib/client/theme";
import "./globals.css";

// Bundled from @fontsource-variable/inter: nothing is downloaded at build time.
const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  variable: "--font-inter",
  display: "swap",
});

export const metadata: Metadata = {
  title: "Taskboard",
  description: "The task board where people and AI coding agents work together",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    // The theme script sets <html>'s class before React hydrates, hence the warning left unsaid.
    <html lang="en" className={inter.variable} suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen font-sans">
        <Providers>{children}</Providers>
        <ServiceWorker />
      </body>
    </html>
  );
}
