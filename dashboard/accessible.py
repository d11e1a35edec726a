"""Dash 4's own controls, mended in the page to what a screen reader and a keyboard expect.

axe-core finds three faults inside Dash's components, in nothing the pages draw themselves
(dash 4.4, measured in tests/dashboard/test_phone.py):

- a dropdown keeps its keyboard stop on a hidden input (`aria-hidden` yet focusable) that hands
  the focus on to the real button, which is out of the tab order: the stop moves to the button;
- radio items and checklists are a `listbox` of `option`s with native radio or check boxes
  inside (controls nested in controls), named by nothing: they become a `radiogroup` or a
  `group` of native boxes, named by the label above them;
- the replay slider's handle has no name: it takes its label's, or its own title.

The script watches the page (Dash draws and redraws these at any time) and sets only ARIA
attributes and tab stops; what a control does is Dash's. A dropdown's open list of options is
a real listbox and is left alone."""

SCRIPT = """<script>
(function () {
  function labelFor(element) {
    const control = element.closest('.control');
    const byFor = element.id
      && document.querySelector('label[for="' + CSS.escape(element.id) + '"]');
    return byFor || (control && control.querySelector(':scope > label'));
  }
  function nameBy(element, label) {
    if (!label || element.hasAttribute('aria-labelledby')) return;
    if (!label.id) label.id = 'label-' + Math.random().toString(36).slice(2);
    element.setAttribute('aria-labelledby', label.id);
  }
  function mend(root) {
    root.querySelectorAll('.dash-dropdown-focus-target').forEach(function (stop) {
      const button = stop.nextElementSibling;
      if (stop.tabIndex !== -1) stop.tabIndex = -1;
      if (button && button.tagName === 'BUTTON' && !button.disabled && button.tabIndex !== 0)
        button.tabIndex = 0;
    });
    root.querySelectorAll('.dash-options-list[role="listbox"]').forEach(function (list) {
      if (list.closest('.dash-dropdown-content')) return;
      const radios = list.classList.contains('dash-radioitems');
      list.setAttribute('role', radios ? 'radiogroup' : 'group');
      nameBy(list, labelFor(list));
    });
    root.querySelectorAll('.dash-options-list-option[role="option"]').forEach(function (option) {
      if (option.closest('.dash-dropdown-content')) return;
      option.removeAttribute('role');
      option.removeAttribute('aria-selected');
    });
    root.querySelectorAll('[role="slider"]').forEach(function (thumb) {
      if (thumb.hasAttribute('aria-label') || thumb.hasAttribute('aria-labelledby')) return;
      const holder = thumb.closest('[title], .control');
      const label = holder && holder.classList.contains('control') ? labelFor(holder) : null;
      if (label) nameBy(thumb, label);
      else if (holder) thumb.setAttribute('aria-label', holder.getAttribute('title'));
    });
  }
  let queued = false;
  new MutationObserver(function () {
    if (queued) return;
    queued = true;
    requestAnimationFrame(function () { queued = false; mend(document); });
  }).observe(document.documentElement, {
    childList: true, subtree: true, attributes: true,
    attributeFilter: ['tabindex', 'role', 'aria-selected', 'disabled'],
  });
  mend(document);
})();
</script>"""
