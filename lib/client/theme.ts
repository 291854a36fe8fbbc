// Light, dark, or the system's choice (the default), kept in localStorage. The script below runs in
// the page's <head> before anything paints (app/layout.tsx), so a dark page never flashes light; it
// also follows the system's changes while the choice is "system". The Tailwind `dark:` variant
// keys on the `dark` class it sets (app/globals.css).

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_KEY = "taskboard-theme";

export const THEME_SCRIPT = `(function(){var k=${JSON.stringify(THEME_KEY)},m=window.matchMedia("(prefers-color-scheme: dark)");
function apply(){var t;try{t=localStorage.getItem(k)}catch(e){}var d=t==="dark"||(t!=="light"&&m.matches);
var c=document.documentElement.classList;c.toggle("dark",d);c.toggle("light",!d);}
apply();m.addEventListener("change",apply);window.addEventListener("storage",function(e){if(e.key===k)apply()});
window.__applyTheme=apply;})();`;

export function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

export function chooseTheme(theme: Theme): void {
  try {
    if (theme === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
  const apply = (window as unknown as { __applyTheme?: () => void }).__applyTheme;
  if (apply) apply();
}
