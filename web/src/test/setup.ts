import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// CI machines run the Go suites beside this one: a screen that renders in
// 50 ms here can take more than the 1 s default to settle there. The wait only
// lengthens when something is late; a screen that never arrives still fails.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
});
