import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * Fails when the page scrolls sideways: the document or the body wider than
 * the window. The message names the address and the first elements that
 * reach past the window's right edge. With `elements`, any such element
 * fails it too, even where an ancestor clips it (a popover cut off at the
 * edge is as unreadable as a page that scrolls).
 */
export async function expectNoSidewaysScroll(page: Page, what = "", { elements = false }: { elements?: boolean } = {}): Promise<void> {
  // Let late layout (fonts, images, a query's second render) settle.
  await page.waitForTimeout(300);
  const o = await page.evaluate(() => {
    const view = document.documentElement.clientWidth;
    // The window's edge, scroll bar included: fixed layers (the toaster) sit against it.
    const edge = window.innerWidth;
    const wide = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => {
        // The toaster's list is an invisible frame wider than a phone; its toasts are checked.
        if (el.hasAttribute("data-sonner-toaster")) return false;
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.right > edge + 1;
      })
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 3).join(".")}`)
      .slice(0, 5);
    return { doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, view, wide };
  });
  const detail = `${what ? `${what}: ` : ""}${page.url()} ${o.wide.join(", ")}`;
  expect(o.doc, `the document scrolls sideways — ${detail}`).toBeLessThanOrEqual(o.view);
  expect(o.body, `the body scrolls sideways — ${detail}`).toBeLessThanOrEqual(o.view);
  if (elements) expect(o.wide, `elements reach past the window — ${detail}`).toEqual([]);
}
