// The page the service worker shows for a page that needs the network while there is none: it
// says so in the page's language (the catalog the worker kept from the last visit) and leads to
// the scorekeeper, which works offline. The English of offline.html stays when no catalog is kept.
import { t, chosenLanguage, loadCatalog } from "./i18n.js";

loadCatalog(chosenLanguage()).then(() => {
  document.getElementById("offline-title").textContent = t("offline_title");
  document.getElementById("offline-text").textContent = t("offline_text");
  document.getElementById("offline-open").textContent = t("offline_open");
  document.title = t("offline_title");
}, () => {});
