// The provider-named spelling of /codehost/status: the same handler.
export { GET } from "@/app/api/workspaces/[id]/codehost/status/route";
