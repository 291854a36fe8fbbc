// Unknown API paths answer in the API's error format rather than with Next's HTML 404 page
// (lib/api/http-guard.ts answers any other method).
function notFound() {
  return Response.json({ detail: "Not Found" }, { status: 404 });
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
