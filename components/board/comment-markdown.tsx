"use client";

import Markdown, { defaultUrlTransform } from "react-markdown";

// A comment's Markdown, rendered safely: react-markdown builds React elements from the syntax
// tree and, without a raw-HTML plugin, shows HTML in the text as text (a `<script>` is never an
// element). Its default URL transform drops `javascript:` and other unsafe schemes; links open in
// a new tab without handing it this page (`rel="noopener noreferrer"`).

export function CommentMarkdown({ text }: { text: string }) {
  return (
    <div className="prose-comment min-w-0 space-y-2 text-sm break-words [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 dark:[&_code]:bg-slate-800 [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_ul]:list-disc [&_ul]:pl-5">
      <Markdown
        urlTransform={defaultUrlTransform}
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noopener noreferrer" className="text-blue-700 underline dark:text-blue-300">
              {children}
            </a>
          ),
          img: ({ alt }) => <span>{alt ? `[image: ${alt}]` : "[image]"}</span>,
        }}
      >
        {text}
      </Markdown>
    </div>
  );
}
