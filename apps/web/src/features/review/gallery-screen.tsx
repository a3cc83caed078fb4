import { useEffect, useMemo, useRef, useState } from 'react';
import { Col, Form, Nav, Row, Tab } from 'react-bootstrap';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/alerts';
import { Pagination, pageSlice } from '../../components/pagination';
import { EmptyText, LoadingText, statusTexts } from '../../components/status-text';
import { useSettings } from '../../lib/settings';
import { EventDetailsModal } from '../../domain/events/components/event-details-modal';
import { useReviewImages, useReviewLive } from './api/review';
import { ReviewBreadcrumb } from './components/review-breadcrumb';
import { HideAsnapSwitch } from './components/review-events';
import { useArrowKeys } from './hooks/use-arrow-keys';
import { useReviewStore } from './review-store';
import {
  defaultGalleryPageSize,
  galleryDelayMs,
  galleryPageSizes,
  galleryTabs,
  pageKeepingFirst,
  type GalleryImage,
} from './lib/gallery';
import './review.css';

/** Tab keys by position: camera names may hold spaces, which ids (aria-controls) may not. */
const tabKey = (index: number) => `camera-${index}`;

/** One picture: the thumbnail; a broken one shows the no-image picture. A click opens Event Details. */
function GalleryItem({ image, onOpen }: { image: GalleryImage; onOpen: (eventId: string) => void }) {
  const [broken, setBroken] = useState(false);
  return (
    <Col xs={12} sm={6} md={4} lg={3} className="mb-3" data-testid="gallery-image">
      <button
        type="button"
        className="gallery-image border-0 p-0 bg-transparent w-100"
        onClick={() => onOpen(image.eventId)}
        title={`Event details of ${image.fileName}`}
      >
        {broken ? (
          <div className="data-card-image broken">
            <div className="image-missing">No image</div>
          </div>
        ) : (
          <img
            src={image.thumbnail}
            alt={`${image.camera}: ${image.fileName}`}
            loading="lazy"
            onError={() => setBroken(true)}
          />
        )}
      </button>
    </Col>
  );
}

/**
 * /review_gallery/{id} (docs/screens.md#review-gallery): one pill tab per camera in
 * first-seen order, thumbnails 4 per row, 16/32/48/64/80 per page; page and page-size changes
 * apply 500 ms after the last one (a page-size change keeps the first visible image on screen); ←/→ page, Hide ASNAP, a click opens Event Details.
 */
export function GalleryScreen({ loweringId }: { loweringId: string }) {
  // The gallery needs only Hide ASNAP from the store: the event list is not loaded here.
  const store = useReviewStore(loweringId);
  useReviewLive(loweringId);
  const settings = useSettings();
  const images = useReviewImages(loweringId, store.hideAsnap);
  const tabs = useMemo(() => galleryTabs(images.data ?? [], settings.imagePath), [images.data, settings.imagePath]);
  const [activeTab, setActiveTab] = useState<string | null>(null);
  const [pageSize, setPageSize] = useState<number>(defaultGalleryPageSize);
  const [sizeChoice, setSizeChoice] = useState<number>(defaultGalleryPageSize);
  // Applied pages (the images shown) and chosen pages (the pager): a choice applies 500 ms after
  // the last one, so paging through quickly does not load every page's thumbnails.
  const [pages, setPages] = useState<Record<string, number>>({});
  const [chosenPages, setChosenPages] = useState<Record<string, number>>({});
  const [detailsId, setDetailsId] = useState<string | null>(null);
  const sizeTimer = useRef<number | undefined>(undefined);
  const pageTimer = useRef<number | undefined>(undefined);
  useEffect(
    () => () => {
      window.clearTimeout(sizeTimer.current);
      window.clearTimeout(pageTimer.current);
    },
    [],
  );

  const camera = activeTab && tabs.some((t) => t.camera === activeTab) ? activeTab : (tabs[0]?.camera ?? null);
  const tab = tabs.find((t) => t.camera === camera);
  const pageCount = (t: { images: unknown[] } | undefined) =>
    Math.max(1, Math.ceil((t?.images.length ?? 0) / pageSize));
  const clampPage = (name: string | null, page: number) =>
    Math.min(page, pageCount(tabs.find((t) => t.camera === name)));
  const pageOf = (name: string | null) => clampPage(name, pages[name ?? ''] ?? 1);
  const chosenPageOf = (name: string | null) => clampPage(name, chosenPages[name ?? ''] ?? pages[name ?? ''] ?? 1);

  // The pages as the user last chose them, read when a page-size change applies.
  const latestChoice = useRef<Record<string, number>>({});
  latestChoice.current = { ...pages, ...chosenPages };

  const later = (timer: { current: number | undefined }, apply: () => void) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(apply, galleryDelayMs);
  };

  const choosePage = (name: string, page: number) => {
    setChosenPages((p) => ({ ...p, [name]: page }));
    later(pageTimer, () => setPages((p) => ({ ...p, [name]: page })));
  };

  const changeSize = (size: number) => {
    setSizeChoice(size);
    later(sizeTimer, () => {
      // Every tab keeps its first visible image on screen.
      window.clearTimeout(pageTimer.current);
      const kept = Object.fromEntries(
        Object.entries(latestChoice.current).map(([k, page]) => [k, pageKeepingFirst(page, pageSize, size)]),
      );
      setPages(kept);
      setChosenPages(kept);
      setPageSize(size);
    });
  };

  useArrowKeys({
    left: () => camera && choosePage(camera, Math.max(1, chosenPageOf(camera) - 1)),
    right: () => camera && choosePage(camera, Math.min(pageCount(tab), chosenPageOf(camera) + 1)),
  });

  return (
    <div className="review-screen" data-testid="review-gallery">
      <div className="d-flex justify-content-between align-items-start flex-wrap gap-2">
        <ReviewBreadcrumb loweringId={loweringId} mode="gallery" />
        <div className="d-flex align-items-center gap-3">
          <Form.Group controlId="gallery-page-size" className="d-flex align-items-center gap-2 mb-0">
            <Form.Label className="mb-0 small">Images/Page</Form.Label>
            <Form.Select size="sm" value={sizeChoice} onChange={(e) => changeSize(Number(e.target.value))}>
              {galleryPageSizes.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <HideAsnapSwitch checked={store.hideAsnap} />
        </div>
      </div>
      <ErrorAlert message={images.isError ? errorMessage(images.error) : null} />
      {images.isPending ? (
        <>
          <hr className="my-1" />
          <LoadingText text={statusTexts.loading} />
        </>
      ) : tabs.length === 0 ? (
        <>
          <hr className="my-1" />
          <EmptyText>{statusTexts.noImages}</EmptyText>
        </>
      ) : (
        <Tab.Container
          id="gallery-tabs"
          activeKey={tabKey(tabs.findIndex((t) => t.camera === camera))}
          onSelect={(k) => setActiveTab(tabs.find((_, i) => tabKey(i) === k)?.camera ?? null)}
          mountOnEnter
        >
          <Nav variant="pills" className="mb-2" role="tablist">
            {tabs.map((t, i) => (
              <Nav.Item key={t.camera}>
                <Nav.Link eventKey={tabKey(i)}>{t.camera}</Nav.Link>
              </Nav.Item>
            ))}
          </Nav>
          <Tab.Content>
            {tabs.map((t, i) => (
              <Tab.Pane key={t.camera} eventKey={tabKey(i)}>
                <Row>
                  {pageSlice(t.images, pageOf(t.camera), pageSize).map((image, i) => (
                    <GalleryItem key={`${image.url}-${i}`} image={image} onOpen={setDetailsId} />
                  ))}
                </Row>
                <Pagination
                  page={chosenPageOf(t.camera)}
                  total={t.images.length}
                  pageSize={pageSize}
                  label={`${t.camera} pages`}
                  onChange={(page) => choosePage(t.camera, page)}
                />
              </Tab.Pane>
            ))}
          </Tab.Content>
        </Tab.Container>
      )}
      <EventDetailsModal eventId={detailsId} onHide={() => setDetailsId(null)} />
    </div>
  );
}
