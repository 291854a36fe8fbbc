/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // These load WebAssembly and data files by path at run time, which bundling would break.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "@prisma/client", "pg"],
};

export default nextConfig;
