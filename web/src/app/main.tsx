import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { Providers } from "./providers";
import { routes } from "./router";
import "./index.css";

const container = document.getElementById("root");
if (!container) {
  throw new Error("Fairbalance: #root element missing from index.html");
}

const router = createBrowserRouter(routes);

createRoot(container).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
